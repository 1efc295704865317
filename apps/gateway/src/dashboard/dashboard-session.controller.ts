import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Inject } from '@nestjs/common';
import { AuthFailures } from '../auth/auth-failures';
import { DomainError } from '@app/errors';
import { ApiErrors } from '../http/api-errors';
import { DASHBOARD_OPTIONS, DashboardOptions } from './dashboard-options';
import { DashboardSession, DashboardSessionsService, sessionView, SessionView } from './dashboard-sessions.service';
import { DashboardUsersService } from './dashboard-users.service';
import {
  AcceptedInvitationResponse,
  AcceptInvitationRequest,
  SessionViewResponse,
  SignInRequest,
  TotpConfirmRequest,
  TotpEnrollmentResponse,
} from './dashboard.dto';
import { clearedSessionCookie, sessionCookie } from './session-cookie';
import { CurrentSession, SessionRoute } from './session.guard';
import { TotpService } from './totp.service';

/** Invitations, signing in and out, and TOTP enrolment: the dashboard's session routes (docs/dashboard.md). */
@ApiTags('dashboard')
@Controller('dashboard/api')
export class DashboardSessionController {
  constructor(
    private readonly users: DashboardUsersService,
    private readonly sessions: DashboardSessionsService,
    private readonly totp: TotpService,
    private readonly failures: AuthFailures,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  @Post('invitations/accept')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set the password of an invited dashboard user (once, within 72 hours of the invitation)' })
  @ApiOkResponse({ type: AcceptedInvitationResponse })
  @ApiErrors(
    { VALIDATION_FAILED: 'a password shorter than 12 characters, or a malformed token' },
    { NOT_FOUND: 'no such invitation, or it was used or has expired' },
  )
  accept(@Body() body: AcceptInvitationRequest): Promise<AcceptedInvitationResponse> {
    return this.users.accept(body.token, body.password);
  }

  @Post('session')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in to the dashboard: answers the session and sets its cookie (pp_dash, HttpOnly, SameSite=Strict)',
  })
  @ApiOkResponse({ type: SessionViewResponse })
  @ApiErrors(
    { AUTH_INVALID: 'wrong email, password or authenticator code (the same answer for an unknown email)' },
    'TOTP_REQUIRED',
    'ACCOUNT_LOCKED',
    {
      RATE_LIMITED: 'too many failed authentications from this address (AUTH_FAILURES_PER_MINUTE), whatever the email',
    },
  )
  async signIn(
    @Body() body: SignInRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionView> {
    // Failures count per client address too, like bad keys: guessing across many emails costs the guesser.
    const signIn = () => this.sessions.signIn(body.email, body.password, body.totpCode);
    const session = await this.failures.check(request, signIn);
    void reply.header('set-cookie', sessionCookie(session.token, this.options.secureCookie));
    return sessionView(session);
  }

  @Get('session')
  @SessionRoute()
  @ApiOperation({ summary: 'The signed-in user, their merchants and roles, and the session’s CSRF token' })
  @ApiOkResponse({ type: SessionViewResponse })
  current(@CurrentSession() session: DashboardSession): SessionView {
    return sessionView(session);
  }

  @Delete('session')
  @HttpCode(204)
  @SessionRoute()
  @ApiOperation({ summary: 'Sign out: this session ends' })
  @ApiNoContentResponse({ description: 'Signed out' })
  async signOut(
    @CurrentSession() session: DashboardSession,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.signOut(session);
    void reply.header('set-cookie', clearedSessionCookie(this.options.secureCookie));
  }

  @Delete('sessions')
  @HttpCode(204)
  @SessionRoute()
  @ApiOperation({ summary: 'Sign out everywhere: every session of this user ends' })
  @ApiNoContentResponse({ description: 'Signed out everywhere' })
  async signOutEverywhere(
    @CurrentSession() session: DashboardSession,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.signOutEverywhere(session);
    void reply.header('set-cookie', clearedSessionCookie(this.options.secureCookie));
  }

  @Post('totp')
  @HttpCode(200)
  @SessionRoute()
  @ApiOperation({
    summary: 'Start TOTP enrolment (owners): a new secret for the authenticator app; on after /totp/confirm',
  })
  @ApiOkResponse({ type: TotpEnrollmentResponse })
  @ApiErrors({ AUTH_INSUFFICIENT_SCOPE: 'the user is not an owner of any merchant' })
  enroll(@CurrentSession() session: DashboardSession): Promise<TotpEnrollmentResponse> {
    if (!session.memberships.some((m) => m.role === 'owner')) {
      throw new DomainError('AUTH_INSUFFICIENT_SCOPE', 'TOTP is for owners');
    }
    return this.totp.enroll(session.user);
  }

  @Post('totp/confirm')
  @HttpCode(204)
  @SessionRoute()
  @ApiOperation({ summary: 'Turn TOTP on with the first code the authenticator app shows' })
  @ApiNoContentResponse({ description: 'TOTP is on: sign-ins ask for a code from now on' })
  @ApiErrors({ VALIDATION_FAILED: 'the code is not right' }, { INVALID_STATE: 'no enrolment was started' })
  confirm(@CurrentSession() session: DashboardSession, @Body() body: TotpConfirmRequest): Promise<void> {
    return this.totp.confirm(session.user.id, body.code);
  }
}
