import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@app/observability';
import { PollingLoop } from '@app/platform';
import { BillingIdempotencyRepository } from './billing-idempotency.repository';

/** Keys are kept 24 hours, as payments keeps its own (DECISIONS §3). */
export const BILLING_KEY_RETENTION_MS = 24 * 3600_000;
const EVERY_MS = 3600_000;
const BATCH = 1000;

/** Deletes expired billing Idempotency-Key records in batches (replicas side by side: SKIP LOCKED). */
@Injectable()
export class BillingIdempotencySweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    private readonly records: BillingIdempotencyRepository,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.loop = new PollingLoop(
      async () => (await this.sweepOnce()) >= BATCH,
      EVERY_MS,
      (e) => logger.warn({ err: e }, 'Billing idempotency key sweep failed; will retry'),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** One batch; real time, like every retention: it is about operations, not business time. */
  sweepOnce(): Promise<number> {
    return this.records.deleteExpired(BILLING_KEY_RETENTION_MS, BATCH);
  }
}
