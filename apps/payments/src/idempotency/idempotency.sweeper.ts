import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@app/observability';
import { IdempotencyRepository } from './idempotency.repository';

const RETENTION_HOURS = 24;
const EVERY_MS = 3600_000;

/** Idempotency keys are kept 24 hours (DECISIONS §3), then deleted once an hour. */
@Injectable()
export class IdempotencySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly keys: IdempotencyRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => void this.runOnce().catch((e) => this.logger.warn({ err: e }, 'key sweep failed')),
      EVERY_MS,
    ).unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async runOnce(): Promise<number> {
    const deleted = await this.keys.deleteOlderThan(RETENTION_HOURS);
    if (deleted) this.logger.info({ deleted }, 'expired idempotency keys deleted');
    return deleted;
  }
}
