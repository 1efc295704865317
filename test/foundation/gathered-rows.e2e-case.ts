import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  dataSourceOptions,
  ensureDatabase,
  gatherRow,
  GroupedTransactions,
  inTransaction,
  runStatement,
  statement,
} from '@app/database';
import { runState } from '../support/run-state';

/** Each row records how many rows the statement that wrote it carried. */
const GATHERED = statement(
  'gather_test_insert',
  `INSERT INTO items (id, label, batch)
   SELECT id, label, json_array_length($1::json) FROM json_to_recordset($1::json) AS v(id int, label text)`,
);
const COUNT = statement('gather_test_count', 'SELECT count(*)::int AS n FROM items');

class Mapped extends Error {}

/**
 * A DataSource with a service's connection settings (dataSourceOptions, pipelined) on a database of its own for
 * this run, with at most `poolSize` connections.
 */
async function freshDataSource(suffix: string, poolSize: number): Promise<DataSource> {
  const url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_${suffix}`;
  await ensureDatabase(url);
  const options = dataSourceOptions({ app: 'test', url, entities: [], migrations: [], poolSize, pipeline: true });
  return new DataSource(options).initialize();
}

/** gatherRow on real PostgreSQL: one statement per transaction for any number of rows. */
describe('gatherRow', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await freshDataSource('gather', 4);
    await ds.query('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL, batch int NOT NULL)');
  });
  afterAll(() => ds?.destroy());
  beforeEach(() => ds.query('TRUNCATE items'));

  const rows = async () =>
    (await ds.query('SELECT id, batch FROM items ORDER BY id')) as Array<{ id: number; batch: number }>;

  it('sends the rows of one transaction as one statement with the commit, after the work', async () => {
    const seenInside = await inTransaction(ds, async (m) => {
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
    const attempt = inTransaction(ds, async (m) => {
      await gatherRow(m, GATHERED, { id: 1, label: 'a' }, (e) => new Mapped((e as Error).message));
      await gatherRow(m, GATHERED, { id: 7, label: 'duplicate' });
    });
    await expect(attempt).rejects.toBeInstanceOf(Mapped);
    expect(await rows()).toEqual([{ id: 7, batch: 1 }]);
  });

  it('rolls back with the work: a work that throws sends nothing', async () => {
    const attempt = inTransaction(ds, async (m) => {
      await gatherRow(m, GATHERED, { id: 1, label: 'a' });
      throw new Error('work failed');
    });
    await expect(attempt).rejects.toThrow('work failed');
    expect(await rows()).toEqual([]);
    // The next transaction on the same runner pool gathers afresh.
    await inTransaction(ds, (m) => gatherRow(m, GATHERED, { id: 2, label: 'b' }));
    expect(await rows()).toEqual([{ id: 2, batch: 1 }]);
  });

  it('outside a pipelined transaction the row is written at once, alone', async () => {
    await gatherRow(ds.manager, GATHERED, { id: 5, label: 'e' });
    expect(await rows()).toEqual([{ id: 5, batch: 1 }]);
    await expect(
      gatherRow(ds.manager, GATHERED, { id: 5, label: 'again' }, () => new Mapped('taken')),
    ).rejects.toBeInstanceOf(Mapped);
  });
});

/**
 * A service's connection (dataSourceOptions) plans each run of a prepared statement for the tables of the moment:
 * a plan made while a table held a few rows is not kept as the table grows. The tables run without autovacuum, as
 * any table does between two of its ANALYZE runs, so only the planning at each run can keep the plan current.
 */
describe("a service connection's plans on tables that grow", () => {
  const ANSWER = statement(
    'gather_test_answer',
    `UPDATE keys k SET answer = v.a FROM json_to_recordset($1::json) AS v(m text, e text, k text, a int)
     WHERE k.merchant = v.m AND k.environment = v.e AND k.key = v.k AND k.answer IS NULL`,
  );
  const TOTALS = statement(
    'gather_test_totals',
    `SELECT e.owner, sum(e.quantity)::int AS total
       FROM unnest($1::int[], $2::int[], $3::int[]) AS p(owner, since, until)
       JOIN events e ON e.owner = p.owner AND e.at >= p.since AND e.at < p.until
      GROUP BY e.owner`,
  );
  let ds: DataSource;

  beforeAll(async () => {
    // One connection: the prepared statements and the plans they may cache live on it, and the EXPLAINs run there.
    ds = await freshDataSource('plan', 1);
    // The shape of idempotency_keys: a key of three columns, on which PostgreSQL plans a tiny table as a scan.
    await ds.query(
      `CREATE TABLE keys (merchant text, environment text, key text, answer int,
         PRIMARY KEY (merchant, environment, key)) WITH (autovacuum_enabled = false)`,
    );
    // The shape of usage_events: read by subscription and period.
    await ds.query(
      `CREATE TABLE events (id serial PRIMARY KEY, owner int NOT NULL, at int NOT NULL, quantity int)
         WITH (autovacuum_enabled = false)`,
    );
    await ds.query('CREATE INDEX events_period ON events (owner, at)');
  });
  afterAll(() => ds?.destroy());

  const explain = async (execute: string): Promise<string> => {
    const rows = (await ds.query(`EXPLAIN (COSTS OFF) ${execute}`)) as Array<{ 'QUERY PLAN': string }>;
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  it('a batch of answers joined on a key of three columns: an index lookup per row once the table is large', async () => {
    const answer = (keys: string[]) =>
      inTransaction(ds, async (m) => {
        for (const k of keys) await gatherRow(m, ANSWER, { m: 'm1', e: 'sandbox', k, a: 200 });
      });
    await ds.query("INSERT INTO keys SELECT 'm1', 'sandbox', 'early' || g FROM generate_series(1, 8) g");
    // Past PostgreSQL's five custom plans, after which it would cache a generic plan of the tiny table.
    for (let i = 1; i <= 8; i++) await answer([`early${i}`]);
    await ds.query("INSERT INTO keys SELECT 'm1', 'sandbox', 'late' || g FROM generate_series(1, 100000) g");

    const plan = await explain(`EXECUTE gather_test_answer('[{"m":"m1","e":"sandbox","k":"late1","a":200}]')`);
    expect(plan).toMatch(/Index Cond: \(\(merchant = v\.m\) AND \(environment = v\.e\) AND \(key = v\.k\)\)/);
    expect(plan).not.toMatch(/Materialize|Seq Scan on keys/);
    await answer(['late1', 'late2']);
    expect(await ds.query('SELECT count(*)::int AS n FROM keys WHERE answer = 200')).toEqual([{ n: 10 }]);
  });

  it('period totals of many keys: the plan of a tiny table is not kept once the table is large', async () => {
    await ds.query('INSERT INTO events (owner, at, quantity) VALUES (1, 5, 2), (1, 6, 3), (2, 5, 7)');
    const totals = (owners: number[]) =>
      runStatement<{ owner: number; total: number }>(ds, TOTALS, [owners, owners.map(() => 0), owners.map(() => 10)]);
    // Past PostgreSQL's five custom plans, with batches of 500 keys as a renewal's: a generic plan would then be
    // made, and cached, on this tiny table.
    const batch = Array.from({ length: 500 }, (_, i) => i + 1);
    for (let i = 0; i < 7; i++) {
      expect((await totals(batch)).sort((a, b) => a.owner - b.owner)).toEqual([
        { owner: 1, total: 5 },
        { owner: 2, total: 7 },
      ]);
    }
    await ds.query(
      'INSERT INTO events (owner, at, quantity) SELECT g % 5000, g % 20, 1 FROM generate_series(1, 50000) g',
    );

    const plan = await explain(`EXECUTE gather_test_totals('{1}', '{0}', '{10}')`);
    expect(plan).toMatch(/Index Cond: \(\(owner = p\.owner\) AND \(at >= p\.since\) AND \(at < p\.until\)\)/);
    expect(plan).not.toMatch(/Seq Scan on events/);
  });
});
