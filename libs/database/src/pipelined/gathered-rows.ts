import { EntityManager } from 'typeorm';
import { beforeCommit, deferStatement, transactionState } from './pipelined-transaction';
import { Statement } from './prepared';

/**
 * A write whose rows are gathered over a pipelined transaction and sent as one statement with its COMMIT: a
 * group of 32 purchases (GroupedTransactions) holds its 32 keys with one INSERT instead of 32, and PostgreSQL
 * binds, plans and executes one statement. The statement takes the rows as one JSON array in $1 (read back with
 * `json_to_recordset`, say). Outside a pipelined transaction the row is written at once, alone.
 *
 * Only for writes that nothing later in the same transaction reads or writes again: they reach the database
 * after the work has returned. A failed batch fails the transaction with the error of its statement, through
 * the `mapError` of its first row; a failed group runs each work again alone, so each then hears its own.
 */
export function gatherRow(
  manager: EntityManager,
  st: Statement,
  row: unknown,
  mapError?: (e: unknown) => unknown,
): Promise<void> {
  const batches = batchesOf(manager);
  if (!batches) return deferStatement(manager, st, [JSON.stringify([row])], mapError);
  const batch = batches.get(st);
  if (batch) batch.rows.push(row);
  else batches.set(st, { rows: [row], mapError });
  return Promise.resolve();
}

interface Batch {
  rows: unknown[];
  mapError?: (e: unknown) => unknown;
}

/** The slot of gathered rows in a pipelined transaction's state (see transactionState). */
const GATHERED = Symbol('gathered rows');

/** The transaction's batches, by statement, in first-use order; written by one beforeCommit hook. */
function batchesOf(manager: EntityManager): Map<Statement, Batch> | undefined {
  return transactionState(manager, GATHERED, () => {
    const batches = new Map<Statement, Batch>();
    beforeCommit(manager, async () => {
      for (const [st, { rows, mapError }] of batches) {
        await deferStatement(manager, st, [JSON.stringify(rows)], mapError);
      }
    });
    return batches;
  });
}
