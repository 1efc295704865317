import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock, SandboxClockCopy } from '@app/clock';
import { CallerContext, ClockAdvancedCommand, ClockAdvancedResult } from '@app/contracts';
import { DueWork, runDueInTimeOrder, whileAdvancing, WorkBound } from '@app/database';
import { DomainError } from '@app/errors';

/** Whose clock a `cmd.<service>.sandbox.clock-advanced` moves: one merchant's sandbox, never production. */
export function sandboxAdvanceScope(ctx: CallerContext): { merchantCode: string; environment: 'sandbox' } {
  if (ctx.environment !== 'sandbox' || !ctx.merchantCode) {
    throw new DomainError('AUTH_INSUFFICIENT_SCOPE', 'Only a merchant’s sandbox clock can be advanced');
  }
  return { merchantCode: ctx.merchantCode, environment: ctx.environment };
}

export type SandboxScope = ReturnType<typeof sandboxAdvanceScope>;

/**
 * Runs `runDue`, one clock advance's due work of the caller's sandbox up to `body.to`, within the command's
 * bound, one advance of a merchant at a time (whileAdvancing: a retry waits, then answers `busy`).
 */
export function whileAdvancingSandbox<T>(
  db: DataSource,
  clock: Clock,
  ctx: CallerContext,
  body: ClockAdvancedCommand,
  runDue: (scope: SandboxScope, to: Date, bound: WorkBound) => Promise<T>,
): Promise<{ busy: true } | { busy: false; result: T }> {
  const scope = sandboxAdvanceScope(ctx);
  const bound = WorkBound.of(body, () => clock.now());
  return whileAdvancing(db, ctx.merchantCode, bound, () => runDue(scope, new Date(body.to), bound));
}

/**
 * Runs every row of `works` due by `body.to` in time order, then keeps this service's copy of the clock.
 * Stopped by its bound, the advance fails and the clock stays; what ran stays done.
 */
export async function advanceSandboxClock(
  deps: { db: DataSource; clock: Clock; clocks: SandboxClockCopy; logger: Logger },
  ctx: CallerContext,
  body: ClockAdvancedCommand,
  works: (scope: SandboxScope) => DueWork<unknown>[],
): Promise<ClockAdvancedResult> {
  const run = await whileAdvancingSandbox(deps.db, deps.clock, ctx, body, (scope, to, bound) =>
    runDueInTimeOrder(deps.db, works(scope), to, bound),
  );
  if (run.busy) return { ran: 0, unfinished: true, busy: true };
  const { ran, unfinished } = run.result;
  if (!unfinished) await deps.clocks.record(ctx.merchantCode, body.offsetMs, new Date(body.to));
  deps.logger.info({ merchantCode: ctx.merchantCode, to: body.to, ran, unfinished }, 'sandbox clock advanced');
  return { ran, unfinished };
}
