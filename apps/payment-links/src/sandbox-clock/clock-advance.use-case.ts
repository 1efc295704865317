import { Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { CallerContext, ClockAdvancedCommand, ClockAdvancedResult } from '@app/contracts';
import { Clock, SandboxClockCopy } from '@app/clock';
import { LOGGER } from '@app/observability';
import { advanceSandboxClock } from '@app/platform';
import { UseCase } from '@app/idempotency';
import { LinkExpiry } from '../link/link-expiry.service';

/**
 * A merchant's sandbox clock is moving: expire that sandbox's links due by the new time, each
 * as of its expiry, before answering. Running it twice does nothing more (expired links are no longer due).
 */
@UseCase({ operation: 'sandbox-clock.advance', idempotency: 'none' })
export class ClockAdvanceUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly expiry: LinkExpiry,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  run(ctx: CallerContext, body: ClockAdvancedCommand): Promise<ClockAdvancedResult> {
    const deps = { db: this.db, clock: this.clock, clocks: this.clocks, logger: this.logger };
    return advanceSandboxClock(deps, ctx, body, (scope) => [this.expiry.dueWork(scope)]);
  }
}
