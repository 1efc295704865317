import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { CallerContext, ClockAdvancedCommand, ClockAdvancedResult } from '@app/contracts';
import { SandboxClockCopy, runDueInTimeOrder } from '@app/database';
import { LOGGER } from '@app/observability';
import { sandboxAdvanceScope } from '@app/platform';
import { HoldExpiryService } from '../hold-expiry/hold-expiry.service';
import { ThreeDsExpiryService } from '../threeds/threeds-expiry.service';

/**
 * A merchant's sandbox clock is moving to `to` (DECISIONS §7): before answering, run every piece of this
 * service's time-driven work of that merchant's sandbox due by then, in time order, each as of the instant
 * it fell due (hold expiries at holdExpiresAt, 3DS session expiries at expiresAt). Running it twice is
 * harmless (done rows are no longer due), which is what makes a retried advance safe.
 */
@Injectable()
export class ClockAdvanceUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly holds: HoldExpiryService,
    private readonly threeDs: ThreeDsExpiryService,
    private readonly clocks: SandboxClockCopy,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(ctx: CallerContext, body: ClockAdvancedCommand): Promise<ClockAdvancedResult> {
    const scope = sandboxAdvanceScope(ctx);
    const to = new Date(body.to);
    const ran = await runDueInTimeOrder(this.db, [this.holds.dueWork(scope), this.threeDs.dueWork(scope)], to);
    await this.clocks.record(ctx.merchantCode, body.offsetMs, to);
    this.logger.info({ merchantCode: ctx.merchantCode, to: body.to, ran }, 'sandbox clock advanced');
    return { ran };
  }
}
