import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import {
  AdvanceClockRequest,
  CallerContext,
  ClockAdvancedCommand,
  ClockAdvancedResult,
  ClockAdvancedSubjects,
  SandboxClockResponse,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { LOGGER } from '@app/observability';
import { advanceTarget } from './advance-target';
import { SandboxClockOffsets } from './sandbox-clock-offsets';
import { SandboxClockRepository } from './sandbox-clock.repository';

/** An advance may have a lot of due work to run; it is a rare, explicit sandbox call, so it may take longer. */
export const ADVANCE_TIMEOUT_MS = 60_000;

/**
 * The merchants' sandbox clocks (DECISIONS §7). A clock is real time plus an offset that only grows; the
 * gateway owns it and puts it into every sandbox command it forwards (SandboxClockRpcClient).
 */
@Injectable()
export class SandboxClockService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clocks: SandboxClockRepository,
    private readonly offsets: SandboxClockOffsets,
    private readonly rpc: RpcClient,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async now(caller: CallerContext): Promise<SandboxClockResponse> {
    const clockOffsetMs = await this.offsets.read(caller.merchantCode);
    return { now: this.clock.now({ ...caller, clockOffsetMs }).toISOString() };
  }

  /**
   * Moves the merchant's clock, with its row locked so a concurrent advance waits and then starts from this
   * one's time. Every service with time-driven work runs what falls due up to the new time before the new
   * offset is saved; if one fails or times out, the transaction rolls back and the clock has not moved. The
   * work already done stays done (each piece is stamped with its own due time), and since running due work
   * twice does nothing, retrying the same advance completes it.
   */
  async advance(caller: CallerContext, body: AdvanceClockRequest): Promise<SandboxClockResponse> {
    const { merchantCode } = caller;
    const { to, offsetMs } = await this.db.transaction(async (manager) => {
      const current = await this.clocks.lockOffset(manager, merchantCode);
      const real = this.clock.now();
      const target = advanceTarget(body, new Date(real.getTime() + current));
      const newOffset = target.getTime() - real.getTime();
      const command: ClockAdvancedCommand = { to: target.toISOString(), offsetMs: newOffset };
      for (const subject of ClockAdvancedSubjects) {
        const ctx = { ...caller, clockOffsetMs: newOffset };
        const result = await this.rpc.send<ClockAdvancedResult>(subject, ctx, command, ADVANCE_TIMEOUT_MS);
        this.logger.info(
          { merchantCode, subject, to: command.to, ran: result.ran },
          'due work ran for a clock advance',
        );
      }
      await this.clocks.save(manager, merchantCode, newOffset, target, real);
      return { to: target, offsetMs: newOffset };
    });
    await this.offsets.advanced(merchantCode, offsetMs);
    return { now: to.toISOString() };
  }
}
