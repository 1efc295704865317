import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import { ApiErrors } from '../http/api-errors';
import { clientAddress } from '../http/client-address';
import type { DashboardSession } from './dashboard-sessions.service';
import {
  AuditEventResponse,
  TotpConfirmRequest,
  TotpEnrollmentResponse,
  TotpRemoveRequest,
  TotpSetupRequest,
} from './dashboard.dto';
import { CurrentSession, SessionRoute } from './session.guard';
import { Actor, TotpSettingsService } from './totp-settings.service';

const REAUTH_ERRORS = [
  { AUTH_INVALID: 'wrong password or authenticator code (each counts toward the email’s sign-in lockout)' },
  { TOTP_REQUIRED: 'TOTP is on: send the current `code` too' },
  'ACCOUNT_LOCKED',
] as const;

/** Two-factor sign-in (TOTP) of the signed-in user, and their audit trail (docs/dashboard.md, Second factor). */
@ApiTags('dashboard')
@Controller('dashboard/api')
export class DashboardTotpController {
  constructor(private readonly settings: TotpSettingsService) {}

  @Post('totp')
  @HttpCode(200)
  @SessionRoute()
  @ApiOperation({
    summary: 'Set up TOTP (owners), or a new secret for it: answers the secret; it takes over after /totp/confirm',
    description:
      'Needs the password and, while TOTP is on, a current code. Until a code from the new secret is ' +
      'confirmed (within 10 minutes), sign-ins go on as before: with the old secret, or with no code when off.',
  })
  @ApiOkResponse({ type: TotpEnrollmentResponse })
  @ApiErrors({ AUTH_INSUFFICIENT_SCOPE: 'the user is not an owner of any merchant' }, ...REAUTH_ERRORS)
  start(
    @CurrentSession() session: DashboardSession,
    @Body() body: TotpSetupRequest,
    @Req() request: FastifyRequest,
  ): Promise<TotpEnrollmentResponse> {
    if (!session.memberships.some((m) => m.role === 'owner')) {
      throw new DomainError('AUTH_INSUFFICIENT_SCOPE', 'TOTP is for owners');
    }
    return this.settings.start(actorOf(session, request), body.password, body.code);
  }

  @Post('totp/confirm')
  @HttpCode(204)
  @SessionRoute()
  @ApiOperation({ summary: 'Turn TOTP on (or on with the new secret) with the first code the app shows for it' })
  @ApiNoContentResponse({ description: 'The new secret is the one sign-ins ask a code of' })
  @ApiErrors(
    { VALIDATION_FAILED: 'the code is not right for the new secret' },
    { INVALID_STATE: 'no set-up was started, or it is older than 10 minutes' },
  )
  confirm(
    @CurrentSession() session: DashboardSession,
    @Body() body: TotpConfirmRequest,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    return this.settings.confirm(actorOf(session, request), body.code);
  }

  @Post('totp/remove')
  @HttpCode(204)
  @SessionRoute()
  @ApiOperation({ summary: 'Turn TOTP off, with the password and a current code' })
  @ApiNoContentResponse({ description: 'TOTP is off: sign-ins ask for the password only' })
  @ApiErrors({ INVALID_STATE: 'TOTP is off' }, ...REAUTH_ERRORS)
  remove(
    @CurrentSession() session: DashboardSession,
    @Body() body: TotpRemoveRequest,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    return this.settings.remove(actorOf(session, request), body.password, body.code);
  }

  @Get('audit-events')
  @SessionRoute()
  @ApiOperation({ summary: 'The signed-in user’s audit trail: changes of their second factor, newest first (100)' })
  @ApiOkResponse({ type: [AuditEventResponse] })
  async events(@CurrentSession() session: DashboardSession): Promise<AuditEventResponse[]> {
    const events = await this.settings.events({ userId: session.user.id });
    return events.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() }));
  }
}

const actorOf = (session: DashboardSession, request: FastifyRequest): Actor => ({
  userId: session.user.id,
  sessionId: session.id,
  clientAddress: clientAddress(request),
});
