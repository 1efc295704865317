import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  beforeCommit,
  ensureDatabase,
  gatherRow,
  GroupedTransactions,
  pipelinedTransaction,
  queryByKey,
  runStatement,
  statement,
} from '@app/database';
import { runState } from '../support/run-state';

/** Each row records how many rows the statement that wrote it carried, and whether it was planned by key. */
const GATHERED = statement(
  'gather_test_insert',
  `INSERT INTO items (id, label, batch, seqscan)
   SELECT id, label, json_array_length($1::json), current_setting('enable_seqscan')
   FROM json_to_recordset($1::json) AS v(id int, label text)`,
);
/** The same, declared as finding its rows by key. */
const KEYED = statement('gather_test_keyed', GATHERED.text, { byKey: true });
const SEQSCAN = statement('gather_test_seqscan', "SELECT current_setting('enable_seqscan') AS s");
const COUNT = statement('gather_test_count', 'SELECT count(*)::int AS n FROM items');
const PLAN_CACHE_MODE = statement('gather_test_plan_cache_mode', "SELECT current_setting('plan_cache_mode') AS s");

class Mapped extends Error {}

/** A pipelined DataSource on a database of its own for this run, with at most `max` connections. */
async function freshDataSource(suffix: string, max: number): Promise<DataSource> {
  const url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_${suffix}`;
  await ensureDatabase(url);
  return new DataSource({ type: 'postgres', url, extra: { max, pipeline: true } }).initialize();
}

/** gatherRow on real PostgreSQL: one statement per transaction for any number of rows. */
describe('gatherRow', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await freshDataSource('gather', 4);
    await ds.query('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL, batch int NOT NULL, seqscan text)');
  });
  afterAll(() => ds?.destroy());
  beforeEach(() => ds.query('TRUNCATE items'));

  const rows = async () =>
    (await ds.query('SELECT id, batch FROM items ORDER BY id')) as Array<{ id: number; batch: number }>;

  it('sends the rows of one transaction as one statement with the commit, after the work', async () => {
    const seenInside = await pipelinedTransaction(ds, async (m) => {
      for (const id of [1, 2, 3]) await gatherRow(m, GATHERED, { id, label: `row ${id}` });
      return (await runStatement<{ n: number }>(m, COUNT, []))[0].n;
    });
    // Nothing was sent while the work ran: the rows leave with the COMMIT.
    expect(seenInside).toBe(0);
    expect(await rows()).toEqual([
      { id: 1, batch: 3 },
      { id: 2, batch: 3 },
      { id: 3, batch: 3 },
    ]);
  });

  it('plans the batches of a by-key statement by key (no sequential scans, no hash joins), then restores the settings', async () => {
    let after: string | undefined;
    await pipelinedTransaction(ds, async (m) => {
      await gatherRow(m, GATHERED, { id: 1, label: 'plain' });
      await gatherRow(m, KEYED, { id: 2, label: 'by key' });
      await gatherRow(m, GATHERED, { id: 3, label: 'plain' });
      // Registered after the gathering: runs once the batches have gone, in the same transaction.
      beforeCommit(m, async () => {
        after = (await runStatement<{ s: string }>(m, SEQSCAN, []))[0].s;
      });
    });
    // First-use order: the plain batch (ids 1 and 3) goes first, as planned by default; then the keyed one.
    expect(await ds.query('SELECT id, batch, seqscan FROM items ORDER BY id')).toEqual([
      { id: 1, batch: 2, seqscan: 'on' },
      { id: 2, batch: 1, seqscan: 'off' },
      { id: 3, batch: 2, seqscan: 'on' },
    ]);
    expect(after).toBe('on');
  });

  it('gathers the rows of every work of a group into one statement', async () => {
    const grouped = new GroupedTransactions(ds, 1, 32);
    // Submitted in one turn: they run as one group, in one transaction.
    await Promise.all([1, 2, 3, 4, 5].map((id) => grouped.run((m) => gatherRow(m, GATHERED, { id, label: 'g' }))));
    const written = await rows();
    expect(written.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    expect(written.map((r) => r.batch)).toEqual([5, 5, 5, 5, 5]);
  });

  it('a failed batch fails the transaction with the mapped error and writes nothing', async () => {
    await ds.query("INSERT INTO items VALUES (7, 'taken', 1)");
    const attempt = pipelinedTransaction(ds, async (m) => {
      await gatherRow(m, GATHERED, { id: 1, label: 'a' }, (e) => new Mapped((e as Error).message));
      await gatherRow(m, GATHERED, { id: 7, label: 'duplicate' });
    });
    await expect(attempt).rejects.toBeInstanceOf(Mapped);
    expect(await rows()).toEqual([{ id: 7, batch: 1 }]);
  });

  it('rolls back with the work: a work that throws sends nothing', async () => {
    const attempt = pipelinedTransaction(ds, async (m) => {
      await gatherRow(m, GATHERED, { id: 1, label: 'a' });
      throw new Error('work failed');
    });
    await expect(attempt).rejects.toThrow('work failed');
    expect(await rows()).toEqual([]);
    // The next transaction on the same runner pool gathers afresh.
    await pipelinedTransaction(ds, (m) => gatherRow(m, GATHERED, { id: 2, label: 'b' }));
    expect(await rows()).toEqual([{ id: 2, batch: 1 }]);
  });

  it('outside a pipelined transaction the row is written at once, alone', async () => {
    await gatherRow(ds.manager, GATHERED, { id: 5, label: 'e' });
    // A statement on a pooled connection, in no transaction: planned as any other.
    expect((await ds.query('SELECT seqscan FROM items'))[0].seqscan).toBe('on');
    expect(await rows()).toEqual([{ id: 5, batch: 1 }]);
    await expect(
      gatherRow(ds.manager, GATHERED, { id: 5, label: 'again' }, () => new Mapped('taken')),
    ).rejects.toBeInstanceOf(Mapped);
  });
});

/**
 * A `replan` statement's plan follows its table's size: a plan made while the table held a few rows must not stay
 * cached for the connection's life. (Without it, a connection that answered idempotency keys early in a run
 * kept a full scan of the key index, and read every key for each batch it answered.)
 */
describe('a replanned by-key statement on a table that grows', () => {
  const ANSWER = statement(
    'gather_test_answer',
    `UPDATE keys k SET answer = v.a FROM json_to_recordset($1::json) AS v(m text, e text, k text, a int)
     WHERE k.merchant = v.m AND k.environment = v.e AND k.key = v.k AND k.answer IS NULL`,
    { byKey: true, replan: true },
  );
  let ds: DataSource;

  beforeAll(async () => {
    // One connection: the prepared statement and its cached plan live on it, and the EXPLAIN below runs there.
    ds = await freshDataSource('plan', 1);
    // The shape of idempotency_keys: a key of three columns, on which PostgreSQL plans a tiny table as a scan.
    await ds.query(
      'CREATE TABLE keys (merchant text, environment text, key text, answer int, PRIMARY KEY (merchant, environment, key))',
    );
  });
  afterAll(() => ds?.destroy());

  it('plans each run for the table of the moment: an index lookup per row once the table is large', async () => {
    const answer = (keys: string[]) =>
      pipelinedTransaction(ds, async (m) => {
        for (const k of keys) await gatherRow(m, ANSWER, { m: 'm1', e: 'sandbox', k, a: 200 });
      });
    await ds.query("INSERT INTO keys SELECT 'm1', 'sandbox', 'early' || g FROM generate_series(1, 8) g");
    // Past PostgreSQL's five custom plans, after which it would cache a generic plan of the tiny table.
    for (let i = 1; i <= 8; i++) await answer([`early${i}`]);
    await ds.query("INSERT INTO keys SELECT 'm1', 'sandbox', 'late' || g FROM generate_series(1, 20000) g");

    const plan = await ds.transaction(async (m) => {
      const settings = await m.query(
        `SELECT set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true),
                set_config('enable_seqscan', 'off', true)`,
      );
      expect(settings).toHaveLength(1);
      const rows = (await m.query(
        `EXPLAIN (COSTS OFF) EXECUTE gather_test_answer('[{"m":"m1","e":"sandbox","k":"late1","a":200}]')`,
      )) as Array<{ 'QUERY PLAN': string }>;
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Cond: \(\(merchant = v\.m\) AND \(environment = v\.e\) AND \(key = v\.k\)\)/);
    expect(plan).not.toMatch(/Materialize/);

    // Statements after it in the same transaction are planned from the cache again.
    let after: string | undefined;
    await pipelinedTransaction(ds, async (m) => {
      for (const k of ['late1', 'late2']) await gatherRow(m, ANSWER, { m: 'm1', e: 'sandbox', k, a: 200 });
      beforeCommit(m, async () => {
        after = (await runStatement<{ s: string }>(m, PLAN_CACHE_MODE, []))[0].s;
      });
    });
    expect(after).toBe('auto');
    expect(await ds.query('SELECT count(*)::int AS n FROM keys WHERE answer = 200')).toEqual([{ n: 10 }]);
  });
});

/**
 * A read declared byKey (usage's period totals): planned with the by-key settings, so that the plan cached
 * while the table held a few rows is an index lookup per key, not a scan of the whole table behind a hash join.
 */
describe('queryByKey', () => {
  const TOTALS = statement(
    'gather_test_totals',
    `SELECT e.owner, sum(e.quantity)::int AS total
       FROM unnest($1::int[], $2::int[], $3::int[]) AS p(owner, since, until)
       JOIN events e ON e.owner = p.owner AND e.at >= p.since AND e.at < p.until
      GROUP BY e.owner`,
    { byKey: true },
  );
  let ds: DataSource;

  beforeAll(async () => {
    // One connection: the prepared statement and its cached plan live on it, and the EXPLAIN below runs there.
    ds = await freshDataSource('read', 1);
    await ds.query('CREATE TABLE events (id serial PRIMARY KEY, owner int NOT NULL, at int NOT NULL, quantity int)');
    await ds.query('CREATE INDEX events_period ON events (owner, at)');
  });
  afterAll(() => ds?.destroy());

  it('plans a read by key, and the plan it caches on a tiny table still looks each key up', async () => {
    await ds.query('INSERT INTO events (owner, at, quantity) VALUES (1, 5, 2), (1, 6, 3), (2, 5, 7)');
    const totals = (owners: number[]) =>
      pipelinedTransaction(ds, async (m) => {
        const rows = await queryByKey<{ owner: number; total: number }>(m, TOTALS, [
          owners,
          owners.map(() => 0),
          owners.map(() => 10),
        ]);
        // The defaults are back for what follows in the transaction.
        const after = await runStatement<{ s: string }>(m, SEQSCAN, []);
        return { rows: rows.sort((a, b) => a.owner - b.owner), seqscan: after[0].s };
      });
    // Past PostgreSQL's five custom plans, with batches of 500 keys as a renewal's: the generic plan is then
    // made, and cached, on this tiny table.
    const batch = Array.from({ length: 500 }, (_, i) => i + 1);
    for (let i = 0; i < 7; i++) {
      expect(await totals(batch)).toEqual({
        rows: [
          { owner: 1, total: 5 },
          { owner: 2, total: 7 },
        ],
        seqscan: 'on',
      });
    }
    await ds.query(
      'INSERT INTO events (owner, at, quantity) SELECT g % 5000, g % 20, 1 FROM generate_series(1, 50000) g',
    );

    const plan = await ds.transaction(async (m) => {
      const rows = (await m.query(`EXPLAIN (COSTS OFF) EXECUTE gather_test_totals('{1}', '{0}', '{10}')`)) as Array<{
        'QUERY PLAN': string;
      }>;
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Cond: \(\(owner = p\.owner\) AND \(at >= p\.since\) AND \(at < p\.until\)\)/);
    expect(plan).not.toMatch(/Seq Scan on events/);
  });

  it('refuses a statement not declared byKey', async () => {
    await expect(pipelinedTransaction(ds, (m) => queryByKey(m, SEQSCAN, []))).rejects.toThrow('not declared byKey');
  });
});
