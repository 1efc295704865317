import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ensureDatabase, whileAdvancing, WorkBound } from '@app/database';
import { runState } from '../support/run-state';
import { dropDatabases } from '../support/templates';
import { sleep, waitUntil } from '../support/wait';

/** The advisory lock class of sandbox clock advances (libs/database/src/work-queues/advance-lock.ts): "sclk". */
const ADVANCE_LOCK_CLASS = 0x73636c6b;

/**
 * The connection that holds a sandbox clock advance's lock is lost while the advance runs (its server killed,
 * the database failover test's case; here its backend is terminated): the process goes on, the advance
 * answers, and the lost connection is not handed out again.
 */
describe('a sandbox clock advance whose lock connection is lost', () => {
  let url: string;
  let ds: DataSource;
  let admin: Client;

  beforeAll(async () => {
    url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_advance_lock`;
    await ensureDatabase(url);
    // One connection: a lost one put back in the pool would be the next one handed out.
    ds = await new DataSource({ type: 'postgres', url, extra: { max: 1 } }).initialize();
    admin = new Client({ connectionString: url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await ds?.destroy();
    if (url) expect(await dropDatabases([url])).toEqual([]);
  });

  const holders = async (): Promise<number[]> =>
    (
      await admin.query<{ pid: number }>(
        `SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND l.classid::bigint = $1 AND d.datname = current_database()`,
        [ADVANCE_LOCK_CLASS],
      )
    ).rows.map((r) => r.pid);

  it('keeps the process running, answers, and hands out a working connection after', async () => {
    const bound = () => WorkBound.of({ waitMs: 2_000 }, () => new Date());
    const lost: number[] = [];
    const first = await whileAdvancing(ds, 'mlost', bound(), async () => {
      const [pid] = await holders();
      lost.push(pid);
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await waitUntil(
        'the lock holder is gone',
        async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 0,
      );
      // Time for the client to read the server's goodbye and the socket's end.
      await sleep(300);
      return 'ran';
    });
    expect(first).toEqual({ busy: false, result: 'ran' });
    expect(lost).toHaveLength(1);
    expect(lost[0]).toEqual(expect.any(Number));

    // The lock went with its session; the next advance takes it on a new connection.
    expect(await holders()).toEqual([]);
    const second = await whileAdvancing(ds, 'mlost', bound(), async () => (await holders()).length);
    expect(second).toEqual({ busy: false, result: 1 });
    const [{ pid }] = (await ds.query('SELECT pg_backend_pid() AS pid')) as Array<{ pid: number }>;
    expect(pid).not.toBe(lost[0]);
  });
});
