import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@app/observability';
import { PollingLoop } from '@app/platform';
import { EventsRepository } from './events.repository';

/** How long `GET /v1/events` keeps an event, counted from when the gateway received it. */
export const EVENT_RETENTION_DAYS = 30;
const BATCH_SIZE = 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes events past their retention, a bounded batch at a time; each replica runs one. */
@Injectable()
export class EventRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop: PollingLoop;

  constructor(
    private readonly events: EventsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.loop = new PollingLoop(
      () => this.sweep(),
      SWEEP_EVERY_MS,
      (e) => logger.warn({ err: e }, 'Event retention sweep could not run; will retry'),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  /** One batch; answers whether it was full (more may be due). */
  async sweep(): Promise<boolean> {
    const deleted = await this.events.prune(EVENT_RETENTION_DAYS, BATCH_SIZE);
    if (deleted) this.logger.info({ deleted }, 'Expired events deleted');
    return deleted === BATCH_SIZE;
  }
}
