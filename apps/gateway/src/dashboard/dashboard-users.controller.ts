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
import { DashboardUserResponse, InvitedDashboardUserResponse, InviteDashboardUserRequest } from './dashboard.dto';
import { DashboardUsersService } from './dashboard-users.service';

/** Operators' API (internal port, ADMIN_TOKEN): invite, list and remove dashboard users. */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@UseGuards(AdminGuard)
@Controller('v1/admin/dashboard-users')
export class DashboardUsersController {
  constructor(private readonly users: DashboardUsersService) {}

  @Post()
  @ApiOperation({
    summary: 'Invite a dashboard user: answers the one-time link that sets the password (good for 72 hours)',
    description:
      'There is no email service: give `inviteUrl` to the user. The token is in the URL fragment, so it never ' +
      'reaches a server log; it is stored only as a hash and shown only in this answer.',
  })
  @ApiCreatedResponse({ type: InvitedDashboardUserResponse })
  @ApiErrors(
    { NOT_FOUND: 'a merchant of `memberships` does not exist' },
    { INVALID_STATE: 'a dashboard user with this email exists' },
  )
  invite(@Body() body: InviteDashboardUserRequest): Promise<InvitedDashboardUserResponse> {
    return this.users.invite(body.email, body.memberships);
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
