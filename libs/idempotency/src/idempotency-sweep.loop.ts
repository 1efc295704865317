import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@app/observability';
import { PeriodicLoop } from '@app/platform';

/** A store of Idempotency-Keys whose expired records can be deleted: answers how many went. */
export interface ExpiringKeys {
  deleteExpired(retentionHours: number): Promise<number>;
}
/** The store the sweeper empties: `idempotency_keys` (IdempotencyRepository) unless a service keeps its own. */
export const EXPIRING_KEYS = Symbol('EXPIRING_KEYS');

/** Keys are kept 24 hours (by the database clock: retention is real time, not a sandbox clock). */
export const KEY_RETENTION_HOURS = 24;
const EVERY_MS = 3600_000;

/** Deletes the Idempotency-Keys older than the retention, never one in progress, once an hour (every service). */
@Injectable()
export class IdempotencySweepLoop extends PeriodicLoop {
  readonly loopName = 'idempotency_sweep';

  constructor(
    @Inject(EXPIRING_KEYS) private readonly keys: ExpiringKeys,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  protected everyMs(): number {
    return EVERY_MS;
  }

  protected async work(): Promise<boolean> {
    await this.runOnce();
    return false;
  }

  async runOnce(): Promise<number> {
    const deleted = await this.keys.deleteExpired(KEY_RETENTION_HOURS);
    if (deleted) this.logger.info({ deleted }, 'expired idempotency keys deleted');
    return deleted;
  }
}
