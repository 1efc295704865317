import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  EventIdCommand,
  EventResponse,
  EventsQuery,
  MerchantQuery,
  WebhooksSubjects,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { RequirePermission } from '../auth/permission';

/** The merchant's events of the last 30 days, as their webhook deliveries carry them. */
@ApiTags('webhooks')
@Controller('v1/events')
@PrivateRoute()
@ApiErrors(forwardedTo('webhooks'))
export class EventsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RequirePermission('read')
  @ApiOperation({
    summary: 'List events, newest first',
    description: 'Events of the key’s merchant and environment, kept 30 days; filter by `type` and creation time.',
  })
  @ApiOkResponse({ type: [EventResponse] })
  @ApiErrors({ NOT_FOUND: '`startingAfter` is not one of these events' })
  list(@Query() query: EventsQuery, @Caller() caller: CallerContext): Promise<EventResponse[]> {
    const { merchantCode: _merchantCode, ...filters } = query;
    return this.rpc.send<EventResponse[], EventsQuery>(WebhooksSubjects.listEvents, caller, filters);
  }

  @Get(':id')
  @RequirePermission('read')
  @ApiOperation({ summary: 'Read one event' })
  @ApiParam({ name: 'id', description: 'Event id (the Webhook-Id of its deliveries)', format: 'uuid' })
  @ApiOkResponse({ type: EventResponse })
  @ApiErrors({ NOT_FOUND: 'no such event of this merchant and environment in the last 30 days' })
  get(
    @Param('id') id: string,
    @Query() _scope: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<EventResponse> {
    return this.rpc.send<EventResponse, EventIdCommand>(WebhooksSubjects.getEvent, caller, { id });
  }
}
