import { DataSource } from 'typeorm';
import { QueryResultRow } from 'pg';
import { deferQuery, deferStatement, inTransaction, Statement, statement } from '../pipelined';

const ORDERED_SCANS = statement('ordered_scans', "SELECT set_config('enable_bitmapscan', 'off', true)");
const ASYNC_COMMIT = statement('async_commit', "SELECT set_config('synchronous_commit', 'off', true)");

export interface QueueWriteOptions {
  /**
   * Commit without waiting for the WAL flush (`synchronous_commit` off for this one transaction). Only for
   * bookkeeping whose loss in a database crash repeats work that is idempotent anyway: the outbox relay's
   * leases and marks (an event published again is dropped by JetStream's duplicate window, or by consumers
   * that dedupe on the event id). It saves a flush per round, which at a low event rate is one per event.
   */
  asyncCommit?: boolean;
}

/**
 * Runs a queue's claim (`… ORDER BY <index columns> LIMIT n FOR UPDATE SKIP LOCKED`) with bitmap scans off for
 * its one transaction. A queue's partial index ("not yet done") keeps an entry for every row version until
 * VACUUM runs (a busy queue gathers thousands between two autovacuum runs), and the planner, which cannot see
 * those, prefers a bitmap scan: it visits the heap page of every version queued since, on every claim (10 ms a
 * claim after 30,000 events, and growing). An ordered index scan stops at the LIMIT and marks the dead entries
 * it passes, so later claims skip them without the heap: what is left is reading their index pages.
 */
export async function runQueueClaim<R extends QueryResultRow = QueryResultRow>(
  ds: DataSource,
  claim: Statement,
  values: unknown[],
  options: QueueWriteOptions = {},
): Promise<R[]> {
  // BEGIN, the settings, the claim and COMMIT leave in one write: one round trip, as the bare claim took.
  let rows!: Promise<R[]>;
  await inTransaction(ds, async (m) => {
    await deferStatement(m, ORDERED_SCANS, []);
    if (options.asyncCommit) await deferStatement(m, ASYNC_COMMIT, []);
    rows = deferQuery<R>(m, claim, values);
  });
  return rows;
}

/** One statement in a transaction of its own that commits without waiting for the WAL flush (see above). */
export async function runAsyncCommit<R extends QueryResultRow = QueryResultRow>(
  ds: DataSource,
  st: Statement,
  values: unknown[],
): Promise<R[]> {
  let rows!: Promise<R[]>;
  await inTransaction(ds, async (m) => {
    await deferStatement(m, ASYNC_COMMIT, []);
    rows = deferQuery<R>(m, st, values);
  });
  return rows;
}
