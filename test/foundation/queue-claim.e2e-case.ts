import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ensureDatabase, runAsyncCommit, runQueueClaim, runStatement, statement } from '@app/database';
import { runState } from '../support/run-state';
import { waitUntil } from '../support/wait';

const SETTINGS = statement(
  'queue_claim_test_settings',
  `SELECT current_setting('synchronous_commit') AS commit, current_setting('enable_bitmapscan') AS bitmap`,
);

const PLAN = statement(
  'queue_claim_test_plan',
  `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
   SELECT id FROM jobs WHERE done_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
   ORDER BY created_at, id LIMIT 10 FOR UPDATE SKIP LOCKED`,
);

interface PlanNode {
  'Node Type': string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

const nodeTypes = (n: PlanNode): string[] => [n['Node Type'], ...(n.Plans ?? []).flatMap(nodeTypes)];

/**
 * A queue whose done rows stay (as outbox rows do, marked published) and that has not been vacuumed since (the
 * time between two autovacuum runs; autovacuum is off for this one table, so it cannot come early): the claim
 * must not read every row version the queue held meanwhile.
 */
describe('runQueueClaim', () => {
  let ds: DataSource;

  /**
   * Waits until no other session of this database holds a snapshot (an autovacuum worker analyzing the new
   * database's catalogs, say): while one does, the row versions the rounds left are not yet dead to every
   * session, so no scan can mark their index entries dead. Beside heavy write load in other databases the
   * planner has still been seen to choose the ordered scan by itself; the test assumes a quiet server.
   */
  const noOtherSnapshot = () =>
    waitUntil('no other session of the test database holds a snapshot', async () => {
      const [row] = (await ds.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_xmin IS NOT NULL`,
      )) as Array<{ n: number }>;
      return row.n === 0;
    });

  beforeAll(async () => {
    const url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_queue`;
    await ensureDatabase(url);
    ds = await new DataSource({ type: 'postgres', url, extra: { max: 2 } }).initialize();
    await ds.query(`CREATE TABLE jobs (id int PRIMARY KEY, created_at timestamptz NOT NULL, claimed_until timestamptz,
                      done_at timestamptz) WITH (autovacuum_enabled = false)`);
    await ds.query('CREATE INDEX jobs_pending ON jobs (created_at, id) WHERE done_at IS NULL');
    await noOtherSnapshot();
    // 5,000 jobs queued, claimed and done in rounds of 100, each step its own transaction, as a relay does.
    for (let round = 0; round < 50; round++) {
      await ds.query(
        `INSERT INTO jobs (id, created_at) SELECT g, now() + g * interval '1 ms' FROM generate_series($1::int, $2::int) g`,
        [round * 100, round * 100 + 99],
      );
      await ds.query(`UPDATE jobs SET claimed_until = now() + interval '5 s' WHERE done_at IS NULL`);
      await ds.query(`UPDATE jobs SET done_at = now() WHERE done_at IS NULL`);
    }
    await ds.query(
      `INSERT INTO jobs (id, created_at) SELECT g, now() + interval '1 hour' FROM generate_series(1e6, 1e6 + 9) g`,
    );
  });
  afterAll(() => ds?.destroy());

  const plan = async (claim: (ds: DataSource) => Promise<Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>>) => {
    const [row] = await claim(ds);
    return row['QUERY PLAN'][0].Plan;
  };
  const blocks = (p: PlanNode) => p['Shared Hit Blocks'] + p['Shared Read Blocks'];

  it('reads the pending index in order and stops at the limit, where the planner would read every version', async () => {
    await noOtherSnapshot();
    // What the planner chooses for this statement on such a table: a bitmap scan that visits the heap page of every
    // row version the index still lists. Held to it here: on a loaded server it has also been seen to pick the
    // ordered scan by itself, which would leave nothing to compare with.
    const planned = await plan((d) =>
      d.transaction(async (m) => {
        await m.query('SET LOCAL enable_indexscan = off');
        return runStatement(m, PLAN, []);
      }),
    );
    expect(nodeTypes(planned)).toContain('Bitmap Index Scan');

    // The first ordered scan marks the dead entries it passes, unless a snapshot somewhere still sees them (a busy
    // server's autovacuum, say): then it is run again, for at most 20 s, until the entries are marked.
    let ordered = await plan((d) => runQueueClaim(d, PLAN, []));
    for (let tries = 0; tries < 40 && blocks(ordered) >= blocks(planned) / 2; tries++) {
      await new Promise((r) => setTimeout(r, 500));
      await noOtherSnapshot();
      ordered = await plan((d) => runQueueClaim(d, PLAN, []));
    }
    expect(nodeTypes(ordered)).toContain('Index Scan');
    expect(nodeTypes(ordered)).not.toContain('Bitmap Index Scan');
    // Left: the index pages of the dead entries (until a VACUUM), no longer the heap pages behind them.
    expect(blocks(ordered)).toBeLessThan(blocks(planned) / 2);
  });

  it('asyncCommit: that one transaction commits without waiting for the flush, the connection keeps its settings', async () => {
    const settings = (run: (ds: DataSource) => Promise<Array<{ commit: string; bitmap: string }>>) =>
      run(ds).then(([row]) => row);
    expect(await settings((d) => runQueueClaim(d, SETTINGS, []))).toEqual({ commit: 'on', bitmap: 'off' });
    expect(await settings((d) => runQueueClaim(d, SETTINGS, [], { asyncCommit: true }))).toEqual({
      commit: 'off',
      bitmap: 'off',
    });
    expect(await settings((d) => runAsyncCommit(d, SETTINGS, []))).toEqual({ commit: 'off', bitmap: 'on' });
    // The pooled connections afterwards: the settings were local to their transactions.
    const after = await Promise.all([1, 2].map(() => settings((d) => runStatement(d, SETTINGS, []))));
    expect(after).toEqual([
      { commit: 'on', bitmap: 'on' },
      { commit: 'on', bitmap: 'on' },
    ]);
  });
});
