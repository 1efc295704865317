import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../http/api-errors';
import { DASHBOARD_OPTIONS, DashboardOptions } from './dashboard-options';
import { DashboardSession, DashboardSessionsService, sessionView, SessionView } from './dashboard-sessions.service';
import { DashboardUsersService } from './dashboard-users.service';
import {
  AcceptedInvitationResponse,
  AcceptInvitationRequest,
  SessionViewResponse,
  SignInRequest,
} from './dashboard.dto';
import { clearedSessionCookie, sessionCookie } from './session-cookie';
import { CurrentSession, SessionRoute } from './session.guard';

export const CROSS_SITE =
  'sent from a page of another site (Origin, or Sec-Fetch-Site without it), not the dashboard’s';
export const TOO_MANY_FAILURES =
  'too many failed requests from this address (AUTH_FAILURES_PER_MINUTE, with failed keys), whatever the email or token';

/**
 * Invitations, signing in and out: the dashboard's session routes (docs/dashboard.md). Accepting an invitation
 * and signing in take no cookie: like every change under /dashboard/api/, they take JSON from the dashboard's own
 * origin only, and their failures count per client address (dashboard-surface.ts).
 */
@ApiTags('dashboard')
@Controller('dashboard/api')
export class DashboardSessionController {
  constructor(
    private readonly users: DashboardUsersService,
    private readonly sessions: DashboardSessionsService,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  @Post('invitations/accept')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set the password of an invited dashboard user (once, within 72 hours of the invitation)' })
  @ApiOkResponse({ type: AcceptedInvitationResponse })
  @ApiErrors(
    { VALIDATION_FAILED: 'a password shorter than 12 characters, or a malformed token' },
    { NOT_FOUND: 'no such invitation, or it was used or has expired' },
    { CSRF_INVALID: CROSS_SITE },
    { RATE_LIMITED: TOO_MANY_FAILURES },
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
    { CSRF_INVALID: CROSS_SITE },
    { RATE_LIMITED: TOO_MANY_FAILURES },
  )
  async signIn(@Body() body: SignInRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionView> {
    // Failures count per client address too (dashboard-surface.ts): guessing across many emails costs the guesser.
    const session = await this.sessions.signIn(body.email, body.password, body.totpCode);
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
}
