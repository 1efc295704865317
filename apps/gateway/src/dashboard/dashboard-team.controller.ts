import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import { ApiErrors } from '../http/api-errors';
import { clientAddress } from '../http/client-address';
import { CROSS_SITE, TOO_MANY_FAILURES } from './dashboard-session.controller';
import type { DashboardSession } from './dashboard-sessions.service';
import {
  InvitedMemberResponse,
  PasswordResetConfirmRequest,
  PasswordResetRequest,
  TeamInviteRequest,
  TeamMemberResponse,
  TeamQuery,
  TeamRoleRequest,
} from './dashboard-team.dto';
import { DashboardTeamService, InvitedMember, MemberView } from './dashboard-team.service';
import { AcceptedInvitationResponse } from './dashboard.dto';
import { CurrentSession, requireRole, SessionRoute } from './session.guard';

const OWNERS_ONLY = {
  AUTH_INSUFFICIENT_SCOPE: 'the user is not an owner of the merchant',
  MERCHANT_MISMATCH: 'the user is not a member of the merchant',
};
const userId = new ParseUUIDPipe({ exceptionFactory: () => DomainError.notFound('team member', 'id') });

/** A merchant's team, run by its owners (docs/dashboard.md, Team). */
@ApiTags('dashboard')
@Controller('dashboard/api/team')
@SessionRoute()
export class DashboardTeamController {
  constructor(private readonly team: DashboardTeamService) {}

  @Get()
  @ApiOperation({ summary: 'The merchant’s dashboard users and their roles (any member)' })
  @ApiOkResponse({ type: [TeamMemberResponse] })
  @ApiErrors({ MERCHANT_MISMATCH: 'the user is not a member of the merchant' })
  list(@CurrentSession() session: DashboardSession, @Query() query: TeamQuery): Promise<MemberView[]> {
    if (!session.memberships.some((m) => m.merchantCode === query.merchantCode)) {
      throw new DomainError('MERCHANT_MISMATCH', `You are not a member of merchant ${query.merchantCode}`);
    }
    return this.team.members(query.merchantCode);
  }

  @Post()
  @ApiOperation({
    summary: 'Invite someone to the merchant by email (owners)',
    description:
      'Someone new gets an invitation email whose link sets their password (once, within 72 hours); someone ' +
      'with a dashboard account already is added at once. Written to the audit log.',
  })
  @ApiCreatedResponse({ type: InvitedMemberResponse })
  @ApiErrors(OWNERS_ONLY, { INVALID_STATE: 'the person is a member of the merchant already' })
  invite(
    @Req() request: FastifyRequest,
    @CurrentSession() session: DashboardSession,
    @Body() body: TeamInviteRequest,
  ): Promise<InvitedMember> {
    requireRole(session, body.merchantCode, 'owner');
    return this.team.invite(actor(request, session), body.merchantCode, body.email, body.role);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a member’s role (owners); a merchant keeps at least one owner' })
  @ApiOkResponse({ type: TeamMemberResponse })
  @ApiErrors(
    OWNERS_ONLY,
    { NOT_FOUND: 'no such member of the merchant' },
    { INVALID_STATE: 'the change would leave the merchant without an owner' },
  )
  changeRole(
    @Req() request: FastifyRequest,
    @CurrentSession() session: DashboardSession,
    @Param('id', userId) id: string,
    @Body() body: TeamRoleRequest,
  ): Promise<MemberView> {
    requireRole(session, body.merchantCode, 'owner');
    return this.team.changeRole(actor(request, session), body.merchantCode, id, body.role);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove someone from the merchant (owners): their sessions lose it at once',
    description: 'Removed from their last merchant, the account goes too. A merchant keeps at least one owner.',
  })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(
    OWNERS_ONLY,
    { NOT_FOUND: 'no such member of the merchant' },
    { INVALID_STATE: 'the change would leave the merchant without an owner' },
  )
  remove(
    @Req() request: FastifyRequest,
    @CurrentSession() session: DashboardSession,
    @Param('id', userId) id: string,
    @Query() query: TeamQuery,
  ): Promise<void> {
    requireRole(session, query.merchantCode, 'owner');
    return this.team.remove(actor(request, session), query.merchantCode, id);
  }
}

/**
 * Forgotten passwords: no cookie; like every change under /dashboard/api/, JSON from the dashboard's own
 * origin only, failures counted per client address (dashboard-surface.ts).
 */
@ApiTags('dashboard')
@Controller('dashboard/api/password-resets')
export class DashboardPasswordResetController {
  constructor(private readonly team: DashboardTeamService) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Email a password reset link (good once, for an hour) to the account of this email, if any',
    description: 'The answer is the same whether or not the email has an account; at most 3 emails an hour each.',
  })
  @ApiAcceptedResponse({ description: 'If the email has an account, a link is on its way' })
  @ApiErrors({ CSRF_INVALID: CROSS_SITE }, { RATE_LIMITED: TOO_MANY_FAILURES })
  async request(@Body() body: PasswordResetRequest): Promise<void> {
    await this.team.requestReset(body.email);
  }

  @Post('confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set a new password from a reset link (once, within the hour); every session ends' })
  @ApiOkResponse({ type: AcceptedInvitationResponse })
  @ApiErrors(
    { VALIDATION_FAILED: 'a password shorter than 12 characters, or a malformed token' },
    { NOT_FOUND: 'no such reset link, or it was used or has expired' },
    { CSRF_INVALID: CROSS_SITE },
    { RATE_LIMITED: TOO_MANY_FAILURES },
  )
  confirm(@Req() request: FastifyRequest, @Body() body: PasswordResetConfirmRequest): Promise<{ email: string }> {
    return this.team.confirmReset(body.token, body.password, clientAddress(request));
  }
}

const actor = (request: FastifyRequest, session: DashboardSession) => ({
  session,
  clientAddress: clientAddress(request),
});
