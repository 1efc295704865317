import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, MerchantQuery } from '@app/contracts';
import { DomainError } from '@app/errors';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { DEFAULT_LIMIT, UUID } from '../webhooks/webhook-endpoints.service';
import { EventResponse, EventsQuery } from './events.dto';
import { EventsRepository } from './events.repository';
import { ApiErrors } from '../http/api-errors';
import { RequirePermission } from '../auth/permission';

/** The merchant's events of the last 30 days, as their webhook deliveries carry them. */
@ApiTags('webhooks')
@Controller('v1/events')
@PrivateRoute()
export class EventsController {
  constructor(private readonly events: EventsRepository) {}

  @Get()
  @RequirePermission('read')
  @ApiOperation({
    summary: 'List events, newest first',
    description: 'Events of the key’s merchant and environment, kept 30 days; filter by `type` and creation time.',
  })
  @ApiOkResponse({ type: [EventResponse] })
  @ApiErrors({ NOT_FOUND: '`startingAfter` is not one of these events' })
  async list(@Query() query: EventsQuery, @Caller() caller: CallerContext): Promise<EventResponse[]> {
    const cursor = query.startingAfter;
    if (cursor && !(UUID.test(cursor) && (await this.events.find(caller, cursor)))) {
      throw DomainError.notFound('event', 'startingAfter');
    }
    const bodies = await this.events.list(caller, query, query.limit ?? DEFAULT_LIMIT, cursor);
    return bodies.map((b) => JSON.parse(b) as EventResponse);
  }

  @Get(':id')
  @RequirePermission('read')
  @ApiOperation({ summary: 'Read one event' })
  @ApiParam({ name: 'id', description: 'Event id (the Webhook-Id of its deliveries)', format: 'uuid' })
  @ApiOkResponse({ type: EventResponse })
  @ApiErrors({ NOT_FOUND: 'no such event of this merchant and environment in the last 30 days' })
  async get(
    @Param('id') id: string,
    @Query() _scope: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<EventResponse> {
    const body = UUID.test(id) ? await this.events.find(caller, id) : undefined;
    if (!body) throw DomainError.notFound('event', 'id');
    return JSON.parse(body) as EventResponse;
  }
}
