import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@app/observability';
import { PeriodicLoop } from '@app/platform';
import { IdempotencyRepository } from './idempotency.repository';

const RETENTION_HOURS = 24;
const EVERY_MS = 3600_000;

/** Idempotency keys are kept 24 hours (DECISIONS §3), then deleted once an hour. */
@Injectable()
export class IdempotencySweepLoop extends PeriodicLoop {
  readonly loopName = 'idempotency_sweep';

  constructor(
    private readonly keys: IdempotencyRepository,
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
    const deleted = await this.keys.deleteOlderThan(RETENTION_HOURS);
    if (deleted) this.logger.info({ deleted }, 'expired idempotency keys deleted');
    return deleted;
  }
}
