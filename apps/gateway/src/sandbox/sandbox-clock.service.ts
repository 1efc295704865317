import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import {
  AdvanceClockRequest,
  CallerContext,
  ClockAdvancedCommand,
  ClockAdvancedResult,
  ClockAdvancedSubjects,
  SandboxClockResponse,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { LOGGER } from '@app/observability';
import { advanceTarget } from './advance-target';
import { SandboxClockOffsets } from './sandbox-clock-offsets';
import { SandboxClockRepository } from './sandbox-clock.repository';

/** An advance may have a lot of due work to run; it is a rare, explicit sandbox call, so it may take longer. */
export const ADVANCE_TIMEOUT_MS = 60_000;
/**
 * How long before the gateway stops waiting a service stops starting new due work: its last round and its
 * answer then still arrive in time, so a cut-short advance answers 422 and its retry goes on.
 */
const ANSWER_MARGIN_MS = 10_000;
/**
 * Injection token of what one advance may do: move the clock at most `maxAdvance` (an ISO 8601 duration) and
 * have each service run at most `maxWork` pieces of due work.
 */
export const ADVANCE_LIMITS = Symbol('ADVANCE_LIMITS');
export interface AdvanceLimits {
  maxAdvance: string;
  maxWork: number;
}

/**
 * The merchants' sandbox clocks (docs/api.md, Sandbox clock). A clock is real time plus an offset that only grows; the
 * gateway owns it and puts it into every sandbox command it forwards (SandboxClockRpcClient).
 */
@Injectable()
export class SandboxClockService {
  constructor(
    private readonly clocks: SandboxClockRepository,
    private readonly offsets: SandboxClockOffsets,
    private readonly rpc: RpcClient,
    private readonly clock: Clock,
    @Inject(ADVANCE_LIMITS) private readonly limits: AdvanceLimits,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async now(caller: CallerContext): Promise<SandboxClockResponse> {
    const clockOffsetMs = await this.offsets.read(caller.merchantCode);
    return { now: this.clock.now({ ...caller, clockOffsetMs }).toISOString() };
  }

  /**
   * Moves the merchant's clock. Every service with time-driven work runs what falls due up to the new time,
   * then the new offset is saved if no other advance landed meanwhile; if one did, this one starts again from
   * that one's time (the due work it already ran stays done: each piece is stamped with its own due time and
   * running it twice does nothing). No transaction is open while the services work. If a service
   * fails or times out, or stops at its bound of work, nothing is saved and the clock has not moved; retrying
   * the advance goes on with it. Once `abandoned()` says the client left, no further service is asked to work
   * (the one at work stops at its deadline) and the clock stays.
   */
  async advance(
    caller: CallerContext,
    body: AdvanceClockRequest,
    abandoned: () => boolean = () => false,
  ): Promise<SandboxClockResponse> {
    const { merchantCode } = caller;
    for (;;) {
      const current = await this.clocks.offsetOf(merchantCode);
      const real = this.clock.now();
      const target = advanceTarget(body, new Date(real.getTime() + current), this.limits.maxAdvance);
      const offsetMs = target.getTime() - real.getTime();
      await this.runDueWork({ ...caller, clockOffsetMs: offsetMs }, { to: target.toISOString(), offsetMs }, abandoned);
      if (abandoned()) throw gone();
      if (await this.clocks.compareAndSet(merchantCode, current, offsetMs, target, real)) {
        await this.offsets.advanced(merchantCode, offsetMs);
        return { now: target.toISOString() };
      }
      // Another advance landed first (each failed attempt means one succeeded): start again from its time.
    }
  }

  /** Each service in turn, told its bound: `maxWork`, and to stop when the gateway no longer waits for it. */
  private async runDueWork(
    ctx: CallerContext,
    move: Pick<ClockAdvancedCommand, 'to' | 'offsetMs'>,
    abandoned: () => boolean,
  ): Promise<void> {
    const maxWork = this.limits.maxWork;
    for (const subject of ClockAdvancedSubjects) {
      if (abandoned()) throw gone();
      const command: ClockAdvancedCommand = { ...move, maxWork, waitMs: ADVANCE_TIMEOUT_MS - ANSWER_MARGIN_MS };
      const result = await this.rpc.send<ClockAdvancedResult>(subject, ctx, command, ADVANCE_TIMEOUT_MS);
      this.logger.info(
        { merchantCode: ctx.merchantCode, subject, to: command.to, ran: result.ran, unfinished: result.unfinished },
        'due work ran for a clock advance',
      );
      if (result.busy) {
        throw DomainError.invalidState(
          'Another advance of this sandbox clock is still running its due work; the clock did not move. Retry ' +
            'once that one has answered',
        );
      }
      if (result.unfinished) {
        throw new DomainError(
          'CLOCK_ADVANCE_TOO_FAR',
          `More than ${maxWork} pieces of due work fall in this advance; the clock did not move. What ran ` +
            'stays done: retry to go on, or advance by a shorter span',
        );
      }
    }
  }
}

/** The client closed the connection: nobody waits for this advance's answer any more. */
const gone = (): DomainError =>
  new DomainError('UPSTREAM_TIMEOUT', 'The client left before the advance finished; the clock did not move');
