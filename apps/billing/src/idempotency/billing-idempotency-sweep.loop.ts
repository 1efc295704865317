import { Injectable } from '@nestjs/common';
import { PeriodicLoop } from '@app/platform';
import { BillingIdempotencyRepository } from './billing-idempotency.repository';

/** Keys are kept 24 hours, as payments keeps its own (DECISIONS §3). */
export const BILLING_KEY_RETENTION_MS = 24 * 3600_000;
const EVERY_MS = 3600_000;
const BATCH = 1000;

/** Deletes expired billing Idempotency-Key records in batches (replicas side by side: SKIP LOCKED). */
@Injectable()
export class BillingIdempotencySweepLoop extends PeriodicLoop {
  readonly loopName = 'idempotency_sweep';

  constructor(private readonly records: BillingIdempotencyRepository) {
    super();
  }

  protected everyMs(): number {
    return EVERY_MS;
  }

  protected async work(): Promise<boolean> {
    return (await this.sweepOnce()) >= BATCH;
  }

  /** One batch; real time, like every retention: it is about operations, not business time. */
  sweepOnce(): Promise<number> {
    return this.records.deleteExpired(BILLING_KEY_RETENTION_MS, BATCH);
  }
}
