import { DataSource, EntityManager } from 'typeorm';
import { inTransaction } from '../pipelined';

/**
 * One kind of time-driven work (a hold expiry, a 3DS session expiry, …) as a clock advance runs it: rows
 * that fall due by a time, each with the instant it fell due.
 */
export interface DueWork<T> {
  /**
   * Up to `limit` rows due by `upTo`, earliest first, row-locked for this transaction. Locks are waited
   * for, not skipped: the advance must not answer while a due row is still being handled elsewhere.
   */
  claim(manager: EntityManager, upTo: Date, limit: number): Promise<T[]>;
  dueAt(row: T): Date;
  /** Does the work as of `at`, the instant it fell due, in the caller's transaction. */
  run(manager: EntityManager, row: T, at: Date): Promise<unknown>;
}

export interface DueItem {
  source: number;
  index: number;
  dueAt: number;
}

/**
 * Merges claimed batches (each sorted by due time) into the order to run them in. A full batch may have
 * more rows after its last one, and those could fall due before another batch's later rows, so a round
 * only runs what is due up to the earliest last row of a full batch; `more` says another round is needed.
 */
export function mergeDue(batches: number[][], limit: number): { items: DueItem[]; more: boolean } {
  const full = batches.filter((b) => b.length >= limit);
  const horizon = full.length ? Math.min(...full.map((b) => b[b.length - 1])) : Infinity;
  const items: DueItem[] = [];
  batches.forEach((b, source) =>
    b.forEach((dueAt, index) => {
      if (dueAt <= horizon) items.push({ source, index, dueAt });
    }),
  );
  // Stable: equal times keep the order of `batches`, then of the rows.
  items.sort((a, b) => a.dueAt - b.dueAt || a.source - b.source || a.index - b.index);
  return { items, more: full.length > 0 };
}

/**
 * Where one clock advance's due work stops: after `maxWork` pieces, or `waitMs` after the command arrived
 * (the gateway no longer waits for the answer then). Either may be absent.
 */
export class WorkBound {
  constructor(
    private readonly maxWork: number | undefined,
    private readonly deadline: Date | undefined,
    private readonly now: () => Date,
  ) {}

  static of(command: { maxWork?: number; waitMs?: number }, now: () => Date): WorkBound {
    const deadline = command.waitMs === undefined ? undefined : new Date(now().getTime() + command.waitMs);
    return new WorkBound(command.maxWork, deadline, now);
  }

  /** How many more pieces may run after `ran` (Infinity without maxWork). */
  left(ran: number): number {
    return this.maxWork === undefined ? Infinity : Math.max(0, this.maxWork - ran);
  }

  reached(ran: number): boolean {
    return this.left(ran) === 0 || this.expired();
  }

  /** The gateway no longer waits for the answer. */
  expired(): boolean {
    return this.deadline !== undefined && this.now().getTime() >= this.deadline.getTime();
  }
}

export interface DueRun {
  ran: number;
  /** The bound stopped the run while work was still due. */
  unfinished: boolean;
}

/**
 * Runs every row of `works` due by `upTo` in time order across the kinds, each as of its own due time,
 * a batch per transaction, until `bound` stops it. Answers how many ran and whether work is left.
 */
export async function runDueInTimeOrder(
  ds: DataSource,
  works: DueWork<unknown>[],
  upTo: Date,
  bound?: WorkBound,
  batchSize = 100,
): Promise<DueRun> {
  let total = 0;
  for (;;) {
    const limit = Math.min(batchSize, bound?.left(total) ?? Infinity);
    const round = await inTransaction(ds, async (manager) => {
      const claimed: unknown[][] = [];
      for (const work of works) claimed.push(await work.claim(manager, upTo, limit));
      const plan = mergeDue(
        claimed.map((rows, i) => rows.map((row) => works[i].dueAt(row).getTime())),
        limit,
      );
      for (const item of plan.items) {
        await works[item.source].run(manager, claimed[item.source][item.index], new Date(item.dueAt));
      }
      return { ran: plan.items.length, more: plan.more };
    });
    total += round.ran;
    if (!round.more) return { ran: total, unfinished: false };
    if (bound?.reached(total)) return { ran: total, unfinished: true };
  }
}
