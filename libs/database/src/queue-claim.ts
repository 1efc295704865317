import { DataSource } from 'typeorm';
import { QueryResultRow } from 'pg';
import { deferQuery, deferStatement, pipelinedTransaction } from './pipelined-transaction';
import { Statement, statement } from './prepared';

const ORDERED_SCANS = statement('ordered_scans', "SELECT set_config('enable_bitmapscan', 'off', true)");

/**
 * Runs a queue's claim (`… ORDER BY <index columns> LIMIT n FOR UPDATE SKIP LOCKED`) with bitmap scans off for
 * its one transaction. A queue's partial index ("not yet done") keeps an entry for every row version until
 * VACUUM runs (autovacuum is off on some hosts), and the planner, which cannot see those, prefers a bitmap
 * scan: it visits the heap page of every version ever queued, on every claim (10 ms a claim after 30,000
 * events, and growing). An ordered index scan stops at the LIMIT and marks the dead entries it passes, so
 * later claims skip them without the heap: what is left is reading their index pages.
 */
export async function runQueueClaim<R extends QueryResultRow = QueryResultRow>(
  ds: DataSource,
  claim: Statement,
  values: unknown[],
): Promise<R[]> {
  // BEGIN, the setting, the claim and COMMIT leave in one write: one round trip, as the bare claim took.
  let rows!: Promise<R[]>;
  await pipelinedTransaction(ds, async (m) => {
    await deferStatement(m, ORDERED_SCANS, []);
    rows = deferQuery<R>(m, claim, values);
  });
  return rows;
}
