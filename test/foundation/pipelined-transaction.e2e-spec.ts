import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import {
  afterCommit,
  beforeCommit,
  deferQuery,
  deferStatement,
  ensureDatabase,
  inTransaction,
  poolOf,
  runStatement,
  statement,
} from '@app/database';
import { runState } from '../support/run-state';

const INSERT = statement('pipe_test_insert', 'INSERT INTO items (id, label) VALUES ($1, $2)');
const COUNT = statement('pipe_test_count', 'SELECT count(*)::int AS n FROM items');

class Mapped extends Error {}

/** inTransaction on real PostgreSQL, with and without the driver's pipeline mode. */
describe.each([true, false])('inTransaction (pipeline mode %s)', (pipeline) => {
  let ds: DataSource;

  beforeAll(async () => {
    const url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_pipe`;
    await ensureDatabase(url);
    ds = await new DataSource({ type: 'postgres', url, extra: { max: 2, pipeline } }).initialize();
    await ds.query('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)');
  });
  afterAll(() => ds?.destroy());
  beforeEach(() => ds.query('TRUNCATE items'));

  const count = async () => (await runStatement<{ n: number }>(ds, COUNT, []))[0].n;

  it('commits deferred and immediate writes together, and reads see earlier deferred writes', async () => {
    const seen = await inTransaction(ds, async (m) => {
      await deferStatement(m, INSERT, [1, 'a']);
      await deferStatement(m, INSERT, [2, 'b']);
      return (await runStatement<{ n: number }>(m, COUNT, []))[0].n;
    });
    expect(seen).toBe(2);
    expect(await count()).toBe(2);
  });

  it('a deferred write that fails fails the transaction with its mapped error and writes nothing', async () => {
    await ds.query("INSERT INTO items VALUES (7, 'taken')");
    const attempt = inTransaction(ds, async (m) => {
      await deferStatement(m, INSERT, [1, 'a']);
      await deferStatement(m, INSERT, [7, 'duplicate'], (e) => new Mapped((e as Error).message));
      await deferStatement(m, INSERT, [3, 'c']);
      return 'done';
    });
    await expect(attempt).rejects.toBeInstanceOf(Mapped);
    expect(await count()).toBe(1);
  });

  it('reports the failed deferred write, not the statement it aborted', async () => {
    await ds.query("INSERT INTO items VALUES (7, 'taken')");
    const attempt = inTransaction(ds, async (m) => {
      await deferStatement(m, INSERT, [7, 'duplicate'], () => new Mapped('duplicate'));
      // Runs after the failed insert in the same transaction: "current transaction is aborted".
      await runStatement(m, COUNT, []);
    });
    await expect(attempt).rejects.toThrow(Mapped);
    expect(await count()).toBe(1);
  });

  it('rolls back when the work throws, and the connection serves the next transaction', async () => {
    await expect(
      inTransaction(ds, async (m) => {
        await deferStatement(m, INSERT, [1, 'a']);
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await count()).toBe(0);
    await inTransaction(ds, (m) => deferStatement(m, INSERT, [4, 'd']));
    expect(await count()).toBe(1);
  });

  it(`gives the connection ${pipeline ? 'several statements at once' : "one statement at a time, TypeORM's too"}`, async () => {
    // The most statements in progress at once on one connection (pg deprecates more than one outside pipeline mode).
    const inProgress = new Map<Client, number>();
    let most = 0;
    const original = Client.prototype.query;
    const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      inProgress.set(this, (inProgress.get(this) ?? 0) + 1);
      most = Math.max(most, inProgress.get(this)!);
      const done = () => void inProgress.set(this, inProgress.get(this)! - 1);
      const answer = (original as (...a: unknown[]) => unknown).apply(this, args);
      Promise.resolve(answer).then(done, done);
      return answer as never;
    });
    try {
      let rows!: Promise<Array<{ n: number }>>;
      await inTransaction(ds, async (m) => {
        await deferStatement(m, INSERT, [1, 'a']);
        await deferStatement(m, INSERT, [2, 'b']);
        await m.query("INSERT INTO items VALUES (3, 'typeorm')");
        await deferStatement(m, INSERT, [4, 'd']);
        rows = deferQuery<{ n: number }>(m, COUNT, []);
      });
      expect((await rows)[0].n).toBe(4);
    } finally {
      spy.mockRestore();
    }
    if (pipeline) expect(most).toBeGreaterThan(1);
    else expect(most).toBe(1);
  });

  it("finds the DataSource's pg Pool (driver-internals.ts)", async () => {
    const pool = poolOf(ds);
    expect(pool).toBeInstanceOf(Pool);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('outside a transaction a deferred write simply runs', async () => {
    await deferStatement(ds.manager, INSERT, [5, 'e']);
    expect(await count()).toBe(1);
  });

  it('afterCommit hooks run once the commit is through, in order, and never after a rollback', async () => {
    const calls: string[] = [];
    const seenAtHook: number[] = [];
    await inTransaction(ds, async (m) => {
      await deferStatement(m, INSERT, [1, 'a']);
      expect(afterCommit(m, () => calls.push('first'))).toBe(true);
      expect(afterCommit(m, () => void count().then((n) => seenAtHook.push(n)))).toBe(true);
      afterCommit(m, () => calls.push('second'));
      expect(calls).toEqual([]);
    });
    expect(calls).toEqual(['first', 'second']);
    // The hook's own read, started after the commit, sees the committed row.
    for (let i = 0; i < 100 && !seenAtHook.length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(seenAtHook).toEqual([1]);

    // A failed deferred write and a work that throws both roll back: their hooks never run.
    await expect(
      inTransaction(ds, async (m) => {
        afterCommit(m, () => calls.push('after a failed write'));
        await deferStatement(m, INSERT, [1, 'duplicate']);
      }),
    ).rejects.toThrow();
    await expect(
      inTransaction(ds, async (m) => {
        afterCommit(m, () => calls.push('after a throw'));
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(calls).toEqual(['first', 'second']);
  });

  it('afterCommit outside a pipelined transaction registers nothing and says so', async () => {
    let ran = false;
    expect(afterCommit(ds.manager, () => (ran = true))).toBe(false);
    await ds.transaction(async (m) => expect(afterCommit(m, () => (ran = true))).toBe(false));
    expect(ran).toBe(false);
  });

  it('beforeCommit hooks run in the transaction after the work, in order; a failing one rolls it all back', async () => {
    const order: string[] = [];
    await inTransaction(ds, async (m) => {
      expect(beforeCommit(m, () => deferStatement(m, INSERT, [2, 'hook']).then(() => void order.push('hook 1')))).toBe(
        true,
      );
      beforeCommit(
        m,
        async () => void order.push(`hook 2 sees ${(await runStatement<{ n: number }>(m, COUNT, []))[0].n}`),
      );
      await deferStatement(m, INSERT, [1, 'work']);
      order.push('work');
    });
    expect(order).toEqual(['work', 'hook 1', 'hook 2 sees 2']);
    expect(await count()).toBe(2);

    await expect(
      inTransaction(ds, async (m) => {
        await deferStatement(m, INSERT, [3, 'work']);
        beforeCommit(m, () => deferStatement(m, INSERT, [1, 'taken']));
        afterCommit(m, () => order.push('committed'));
      }),
    ).rejects.toThrow();
    await expect(
      inTransaction(ds, async (m) => {
        beforeCommit(m, async () => void order.push('never'));
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(order).toHaveLength(3);
    expect(await count()).toBe(2);
    expect(beforeCommit(ds.manager, async () => undefined)).toBe(false);
  });

  it('an afterCommit hook that throws does not make the committed transaction fail', async () => {
    const warned = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const later: string[] = [];
    try {
      const answer = await inTransaction(ds, async (m) => {
        await deferStatement(m, INSERT, [9, 'kept']);
        afterCommit(m, () => {
          throw new Error('hook broke');
        });
        afterCommit(m, () => later.push('next hook'));
        return 'done';
      });
      expect(answer).toBe('done');
      expect(later).toEqual(['next hook']);
      expect(await count()).toBe(1);
      expect(warned).toHaveBeenCalledWith(expect.stringContaining('hook broke'));
    } finally {
      warned.mockRestore();
    }
  });
});
