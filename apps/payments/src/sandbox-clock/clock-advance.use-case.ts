import { Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { CallerContext, ClockAdvancedCommand, ClockAdvancedResult } from '@app/contracts';
import { Clock, SandboxClockCopy } from '@app/clock';
import { LOGGER } from '@app/observability';
import { advanceSandboxClock } from '@app/platform';
import { UseCase } from '@app/idempotency';
import { HoldExpiryService } from '../hold-expiry/hold-expiry.service';
import { ThreeDsExpiryService } from '../threeds/threeds-expiry.service';

/**
 * A merchant's sandbox clock is moving to `to`: before answering, run every piece of this
 * service's time-driven work of that merchant's sandbox due by then, in time order, each as of the instant
 * it fell due (hold expiries at holdExpiresAt, 3DS session expiries at expiresAt). Running it twice is
 * harmless (done rows are no longer due), which is what makes a retried advance safe.
 */
@UseCase({ operation: 'sandbox-clock.advance', idempotency: 'none' })
export class ClockAdvanceUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly holds: HoldExpiryService,
    private readonly threeDs: ThreeDsExpiryService,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  run(ctx: CallerContext, body: ClockAdvancedCommand): Promise<ClockAdvancedResult> {
    const deps = { db: this.db, clock: this.clock, clocks: this.clocks, logger: this.logger };
    return advanceSandboxClock(deps, ctx, body, (scope) => [this.holds.dueWork(scope), this.threeDs.dueWork(scope)]);
  }
}
