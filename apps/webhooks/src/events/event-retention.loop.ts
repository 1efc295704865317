import { Injectable } from '@nestjs/common';
import { PeriodicLoop } from '@app/platform';
import { EventsRepository } from './events.repository';

/** How long `GET /v1/events` keeps an event, counted from when this service received it. */
export const EVENT_RETENTION_DAYS = 30;
const BATCH_SIZE = 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes events past their retention, a bounded batch at a time, once an hour; each replica runs one. */
@Injectable()
export class EventRetentionLoop extends PeriodicLoop {
  readonly loopName = 'event_retention';

  constructor(private readonly events: EventsRepository) {
    super();
  }

  protected everyMs(): number {
    return SWEEP_EVERY_MS;
  }

  protected work(): Promise<boolean> {
    return this.sweep();
  }

  /** One batch; answers whether it was full (more may be due). */
  async sweep(): Promise<boolean> {
    const deleted = await this.events.prune(EVENT_RETENTION_DAYS, BATCH_SIZE);
    if (deleted) this.log.info({ deleted }, 'Expired events deleted');
    return deleted === BATCH_SIZE;
  }
}
