import { MessagePattern } from '@nestjs/microservices';
import { CallerContext, EventIdCommand, EventResponse, EventsQuery, WebhooksSubjects } from '@app/contracts';
import { DomainError } from '@app/errors';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { DEFAULT_LIMIT, UUID } from './list-query';
import { EventsRepository } from './events.repository';

/** The merchant's events of the last 30 days, as their webhook deliveries carry them (GET /v1/events). */
@CommandHandler()
export class EventsHandler {
  constructor(private readonly events: EventsRepository) {}

  @MessagePattern(WebhooksSubjects.listEvents)
  async list(@Caller() caller: CallerContext, @CommandBody() query: EventsQuery): Promise<EventResponse[]> {
    const cursor = query.startingAfter;
    if (cursor && !(UUID.test(cursor) && (await this.events.find(caller, cursor)))) {
      throw DomainError.notFound('event', 'startingAfter');
    }
    const bodies = await this.events.list(caller, query, query.limit ?? DEFAULT_LIMIT, cursor);
    return bodies.map((b) => JSON.parse(b) as EventResponse);
  }

  @MessagePattern(WebhooksSubjects.getEvent)
  async get(@Caller() caller: CallerContext, @CommandBody() { id }: EventIdCommand): Promise<EventResponse> {
    const body = UUID.test(id) ? await this.events.find(caller, id) : undefined;
    if (!body) throw DomainError.notFound('event', 'id');
    return JSON.parse(body) as EventResponse;
  }
}
