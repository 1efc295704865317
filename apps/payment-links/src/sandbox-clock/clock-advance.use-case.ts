import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { CallerContext, ClockAdvancedCommand, ClockAdvancedResult } from '@app/contracts';
import { Clock, SandboxClockCopy } from '@app/clock';
import { runDueInTimeOrder, whileAdvancing, WorkBound } from '@app/database';
import { LOGGER } from '@app/observability';
import { sandboxAdvanceScope } from '@app/platform';
import { LinkExpiry } from '../expiry/link-expiry.service';

/**
 * A merchant's sandbox clock is moving: expire that sandbox's links due by the new time, each
 * as of its expiry, before answering. Running it twice does nothing more (expired links are no longer due).
 */
@Injectable()
export class ClockAdvanceUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly expiry: LinkExpiry,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(ctx: CallerContext, body: ClockAdvancedCommand): Promise<ClockAdvancedResult> {
    const scope = sandboxAdvanceScope(ctx);
    const to = new Date(body.to);
    const bound = WorkBound.of(body, () => this.clock.now());
    const run = await whileAdvancing(this.db, ctx.merchantCode, bound, () =>
      runDueInTimeOrder(this.db, [this.expiry.dueWork(scope)], to, bound),
    );
    if (run.busy) return { ran: 0, unfinished: true, busy: true };
    const { ran, unfinished } = run.result;
    // Stopped by its bound, the advance fails and the clock stays; what ran stays done.
    if (!unfinished) await this.clocks.record(ctx.merchantCode, body.offsetMs, to);
    this.logger.info({ merchantCode: ctx.merchantCode, to: body.to, ran, unfinished }, 'sandbox clock advanced');
    return { ran, unfinished };
  }
}
