import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { DomainError } from '@app/errors';
import { AdminGuard } from '../admin/admin.guard';
import { ApiErrors } from '../http/api-errors';
import { ADMIN_KEY_SCOPE, GatewayIdempotency, IdempotencyKey } from '../idempotency/gateway-idempotency';
import { IdempotencyKeyHeader } from '../auth/idempotent-caller.decorator';
import { DashboardUserResponse, InvitedDashboardUserResponse, InviteDashboardUserRequest } from './dashboard.dto';
import { DashboardUsersService, InvitedUser } from './dashboard-users.service';

/** Operators' API (internal port, ADMIN_TOKEN): invite, list and remove dashboard users. */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@UseGuards(AdminGuard)
@Controller('v1/admin/dashboard-users')
export class DashboardUsersController {
  constructor(
    private readonly users: DashboardUsersService,
    private readonly idempotency: GatewayIdempotency,
  ) {}

  @Post()
  @IdempotencyKeyHeader()
  @ApiErrors('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED')
  @ApiOperation({
    summary: 'Invite a dashboard user: emails and answers the one-time link that sets the password (good for 72 hours)',
    description:
      'The link is emailed to the user (`mail` says whether it went out; with mail off, give `inviteUrl` to the ' +
      'user yourself). The token is in the URL fragment, so it never ' +
      'reaches a server log; it is stored only as a hash and shown only in this answer (a retry with the same ' +
      'Idempotency-Key answers the user without it: if the first answer was lost, remove the user and invite again).',
  })
  @ApiCreatedResponse({ type: InvitedDashboardUserResponse })
  @ApiErrors(
    { NOT_FOUND: 'a merchant of `memberships` does not exist' },
    { INVALID_STATE: 'a dashboard user with this email exists' },
  )
  invite(
    @Body() body: InviteDashboardUserRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<InvitedDashboardUserResponse> {
    const invite = () => this.users.invite(body.email, body.memberships);
    // The link is shown once: the Idempotency-Key's row keeps the answer without it, in no form.
    return this.idempotency.run({ ...ADMIN_KEY_SCOPE, idempotencyKey }, 'dashboard_user.invite', body, invite, {
      shownOnce: ({ inviteUrl: _shownOnce, ...rest }) => rest as InvitedUser,
    });
  }

  @Get()
  @ApiOperation({ summary: 'List dashboard users with their memberships, newest first' })
  @ApiOkResponse({ type: [DashboardUserResponse] })
  list(): Promise<DashboardUserResponse[]> {
    return this.users.list();
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a dashboard user: their sessions end at once' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors({ NOT_FOUND: 'no such dashboard user' })
  remove(
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => DomainError.notFound('dashboard user', 'id') }))
    id: string,
  ): Promise<void> {
    return this.users.remove(id);
  }
}
