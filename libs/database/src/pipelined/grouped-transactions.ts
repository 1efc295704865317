import type { Context } from '@opentelemetry/api';
import { DataSource, EntityManager } from 'typeorm';
import { activeTraceContext, linkTo } from '@app/observability';
import { GroupCommit } from './group-commit';
import { inTransaction } from './pipelined-transaction';

type Work = (manager: EntityManager) => Promise<unknown>;
/** A work and, with tracing on, the context it was submitted in (the group's transaction span links to it). */
interface Submitted {
  work: Work;
  trace?: Context;
}

/**
 * Group commit for the short transactions of a hot path (a purchase's reserve and record): works submitted
 * while the event loop is busy, or while `maxInFlight` groups are out, run together in one pipelined
 * transaction, one BEGIN/COMMIT (and one WAL flush) for the group instead of one each. Each work keeps its
 * own answer. If the group fails (one work's unique violation, a deadlock between groups), every work runs
 * again alone in its own transaction, so each gets exactly the answer it would have had alone; works must
 * therefore be repeatable (no effect outside the database before they succeed). Works in one group see each
 * other's writes, as later transactions would: they must not depend on running apart. With tracing on, the
 * group's transaction span is the child of the first work's span and links to every work's.
 */
export class GroupedTransactions {
  private readonly groups: GroupCommit<null, Submitted, unknown>;

  constructor(db: DataSource, maxInFlight: number, maxGroup: number) {
    this.groups = new GroupCommit<null, Submitted, unknown>(
      (_none, works) =>
        inTransaction(
          db,
          async (manager) => {
            // Every work runs to its end before the group commits or rolls back: none may still be using the
            // connection when it goes back to the pool.
            const settled = await Promise.allSettled(works.map((w) => w.work(manager)));
            const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
            if (failed) throw failed.reason;
            return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
          },
          { links: works.length > 1 ? works.flatMap((w) => linkTo(w.trace)) : undefined },
        ),
      () => '',
      maxInFlight,
      maxGroup,
    );
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const trace = activeTraceContext();
    return this.groups.submit(null, trace ? { work, trace } : { work }) as Promise<T>;
  }
}
