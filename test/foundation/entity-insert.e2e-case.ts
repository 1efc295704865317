import { randomBytes } from 'node:crypto';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { dataSourceOptions, ensureDatabase, entityInsert, entitySelect, inTransaction } from '@app/database';
import { runState } from '../support/run-state';

@Entity('sealed_items')
class SealedItem {
  @PrimaryColumn('int') id: number;
  @Column('text') label: string;
  @Column({ type: 'bytea', nullable: true }) sealed: Buffer | null;
  @Column({ type: 'jsonb' }) tags: string[];
}

class Mapped extends Error {}
const mapped = (e: unknown) => new Mapped((e as Error).message);

const insertDeferred = entityInsert(SealedItem, 'entity_insert_test_deferred');
const insertAwaited = entityInsert(SealedItem, 'entity_insert_test_awaited', { awaited: true });
const byId = entitySelect(SealedItem, 'entity_insert_test_by_id', 'id = $1');

const item = (id: number, sealed: Buffer | null = null): SealedItem =>
  Object.assign(new SealedItem(), { id, label: `item ${id}`, sealed, tags: ['a', 'b'] });

/** entityInsert on real PostgreSQL, in a pipelined transaction: deferred to the commit, or awaited where it is made. */
describe('entityInsert', () => {
  let ds: DataSource;

  beforeAll(async () => {
    const url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_entins`;
    await ensureDatabase(url);
    const options = dataSourceOptions({ app: 'test', url, entities: [SealedItem], migrations: [], pipeline: true });
    ds = await new DataSource(options).initialize();
    await ds.query(
      'CREATE TABLE sealed_items (id int PRIMARY KEY, label text NOT NULL, sealed bytea, tags jsonb NOT NULL)',
    );
  });
  afterAll(() => ds?.destroy());
  beforeEach(() => ds.query('TRUNCATE sealed_items'));

  it('awaited: the row, its bytea and jsonb intact, is readable in the same transaction', async () => {
    const blob = randomBytes(48);
    const inside = await inTransaction(ds, async (m) => {
      await insertAwaited(m, item(1, blob));
      return byId(m, [1]);
    });
    expect(inside).toHaveLength(1);
    expect(Buffer.compare(inside[0].sealed as Buffer, blob)).toBe(0);
    expect(inside[0].tags).toEqual(['a', 'b']);
    expect((await byId(ds, [1]))[0].label).toBe('item 1');
  });

  it('awaited: a failed insert throws, mapped, at the call; the transaction writes nothing', async () => {
    await ds.query(`INSERT INTO sealed_items VALUES (7, 'taken', NULL, '[]')`);
    let heard: unknown;
    const attempt = inTransaction(ds, async (m) => {
      await insertAwaited(m, item(1));
      await insertAwaited(m, item(7), mapped).catch((e: unknown) => {
        heard = e;
        throw e;
      });
    });
    await expect(attempt).rejects.toBeInstanceOf(Mapped);
    expect(heard).toBeInstanceOf(Mapped);
    expect(await ds.query('SELECT id FROM sealed_items ORDER BY id')).toEqual([{ id: 7 }]);
  });

  it('deferred (the default): the work goes on; the failure, mapped, fails the commit', async () => {
    await ds.query(`INSERT INTO sealed_items VALUES (7, 'taken', NULL, '[]')`);
    let returned = false;
    const attempt = inTransaction(ds, async (m) => {
      await insertDeferred(m, item(1));
      await insertDeferred(m, item(7), mapped);
      returned = true;
    });
    await expect(attempt).rejects.toBeInstanceOf(Mapped);
    expect(returned).toBe(true);
    expect(await ds.query('SELECT id FROM sealed_items ORDER BY id')).toEqual([{ id: 7 }]);
  });
});
