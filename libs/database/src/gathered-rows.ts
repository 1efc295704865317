import { EntityManager } from 'typeorm';
import type { QueryResultRow } from 'pg';
import { beforeCommit, deferStatement, transactionState } from './pipelined-transaction';
import { runStatement, Statement, statement } from './prepared';

const PLAN_BY_KEY = statement(
  'gathered_plan_by_key',
  `SELECT set_config('enable_hashjoin', $1, true), set_config('enable_mergejoin', $1, true),
     set_config('enable_seqscan', $1, true), set_config('plan_cache_mode', $2, true)`,
);

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

/**
 * How a statement is planned: as any (`default`), or, for statements that find their rows by key, a few dozen or
 * hundred at a time (those declared `byKey`, sent by gatherRow or runAsyncCommit, and billing's multi-row
 * updates), with hash and merge joins and sequential scans off, so an index lookup per row. Otherwise a plan made
 * while a table was small (or never analyzed: some hosts run without autovacuum) stays cached for the life of
 * the connection as the table grows, and each run reads the whole table: the outbox's mark of 500 events read
 * every row kept for the retention hour.
 *
 * `replanned` (statements declared `replan`) also plans the statement afresh at each run, for the table's size
 * of the moment. A join of many rows to a key of several columns needs it: planned on a table of a few rows,
 * PostgreSQL caches a full scan of the key's index under a Materialize, which the settings above do not rule
 * out, and an idempotency answer cached so read all 100,000 keys for every 32 it answered. A key of one column
 * (`id = v.id`, `id = ANY($1)`) keeps its index lookup in a plan made on one row, and skips the planning.
 *
 * Transaction-local; `default` switches the settings back for the rest of the transaction.
 */
export type Plan = 'default' | 'byKey' | 'replanned';

export function planByKey(manager: EntityManager, plan: Plan): Promise<void> {
  return deferStatement(manager, PLAN_BY_KEY, [
    plan === 'default' ? 'on' : 'off',
    plan === 'replanned' ? 'force_custom_plan' : 'auto',
  ]);
}

/**
 * A read that finds its rows by key, many at a time (declared `byKey`), run with its plan (see planByKey) and
 * the defaults restored after it, in the caller's transaction.
 */
export function queryByKey<R extends QueryResultRow = QueryResultRow>(
  manager: EntityManager,
  st: Statement,
  values: unknown[],
): Promise<R[]> {
  return underPlanOf(manager, st, () => runStatement<R>(manager, st, values));
}

/** A write declared `byKey`, deferred as deferStatement's, between its plan and the defaults' return. */
export function deferByKey(manager: EntityManager, st: Statement, values: unknown[]): Promise<void> {
  return underPlanOf(manager, st, () => deferStatement(manager, st, values));
}

async function underPlanOf<T>(manager: EntityManager, st: Statement, send: () => Promise<T>): Promise<T> {
  if (!st.byKey) throw new Error(`SQL statement "${st.name}" is not declared byKey`);
  await planByKey(manager, planOf(st));
  // A failed statement aborts the transaction, and its rollback drops the settings: restored after a success only.
  const result = await send();
  await planByKey(manager, 'default');
  return result;
}

/** The plan a statement declares (see planByKey). */
export function planOf(st: Statement): Plan {
  return st.replan ? 'replanned' : st.byKey ? 'byKey' : 'default';
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
      // The statements declared `byKey` (updates and deletes that find their rows by key) are planned by key,
      // the plain inserts as any statement.
      let plan: Plan = 'default';
      for (const [st, { rows, mapError }] of batches) {
        if (planOf(st) !== plan) await planByKey(manager, (plan = planOf(st)));
        await deferStatement(manager, st, [JSON.stringify(rows)], mapError);
      }
      if (plan !== 'default') await planByKey(manager, 'default');
    });
    return batches;
  });
}
