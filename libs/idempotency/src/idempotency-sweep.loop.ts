import { Injectable } from '@nestjs/common';
import { PeriodicLoop } from '@app/platform';
import { IdempotencyRepository } from './idempotency.repository';

/** Keys are kept 24 hours (by the database clock: retention is real time, not a sandbox clock). */
export const KEY_RETENTION_HOURS = 24;
const EVERY_MS = 3600_000;
/** Expired keys go this many to a statement; a full batch runs the next one at once. */
export const KEY_SWEEP_BATCH = 1000;

/** Deletes the Idempotency-Keys older than the retention, never one in progress, once an hour (every service). */
@Injectable()
export class IdempotencySweepLoop extends PeriodicLoop {
  readonly loopName = 'idempotency_sweep';

  constructor(private readonly keys: IdempotencyRepository) {
    super();
  }

  protected everyMs(): number {
    return EVERY_MS;
  }

  protected async work(): Promise<boolean> {
    return this.swept(await this.runOnce(), 'expired idempotency keys deleted', KEY_SWEEP_BATCH);
  }

  /** One batch; answers how many keys went. */
  runOnce(): Promise<number> {
    return this.keys.deleteExpired(KEY_RETENTION_HOURS, KEY_SWEEP_BATCH);
  }
}
