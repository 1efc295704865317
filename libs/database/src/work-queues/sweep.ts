import { DataSource, EntityManager } from 'typeorm';
import { linkRunTo, StoredTrace } from '@app/observability';
import { inTransaction } from '../pipelined';

/**
 * The shape of every expiry sweep: claim up to `batchSize` due rows (FOR UPDATE SKIP LOCKED, so replicas
 * split the work), handle each in the same transaction, and go on until a batch comes back short.
 * With tracing on, the run links to the stored trace of each row it claimed (the request that created it).
 * Answers how many rows were handled.
 */
export async function sweepInBatches<T extends StoredTrace>(
  ds: DataSource,
  batchSize: number,
  claim: (manager: EntityManager, limit: number) => Promise<T[]>,
  handle: (manager: EntityManager, row: T) => Promise<unknown>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const due = await inTransaction(ds, async (manager) => {
      const claimed = await claim(manager, batchSize);
      for (const row of claimed) await handle(manager, row);
      return claimed;
    });
    // On the run's span (inside the transaction the active span is the transaction's own).
    linkRunTo(due);
    const handled = due.length;
    total += handled;
    if (handled < batchSize) return total;
  }
}
