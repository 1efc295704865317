import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import type { WorkBound } from './due-work';
import { poolOf } from '../pipelined/driver-internals';

/** Key space of the advisory locks of sandbox clock advances (`pg_advisory_lock(class, key)`): "sclk". */
const ADVANCE_LOCK_CLASS = 0x73636c6b;
/** How often a waiting advance tries the lock again (it holds no connection meanwhile). */
const RETRY_MS = 50;

/**
 * Runs `work`, one clock advance's due work for a merchant's sandbox, while no other advance of that merchant
 * runs in this database: a retried advance (its client gave up and called again) waits for the first one,
 * which stops at its own deadline, instead of starting a second loop over the same rows. The lock is a
 * session advisory lock on a connection of its own, taken with `pg_try_advisory_lock` every 50 ms, so a
 * waiting advance holds no connection; it stops waiting when `bound`'s deadline passes and answers `busy`.
 */
export async function whileAdvancing<T>(
  ds: DataSource,
  merchantCode: string,
  bound: WorkBound,
  work: () => Promise<T>,
): Promise<{ busy: true } | { busy: false; result: T }> {
  const pool = poolOf(ds);
  for (;;) {
    const client = await pool.connect();
    let held = false;
    let broken: Error | undefined;
    // A client taken from the pool has no 'error' listener of its own: the loss of its connection while the lock
    // is held (the database server gone) would be an unhandled 'error' event, which ends the process. It is kept
    // instead, and the connection is closed on release.
    const onError = (e: Error): void => void (broken ??= e);
    client.on('error', onError);
    try {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
        ADVANCE_LOCK_CLASS,
        merchantCode,
      ]);
      held = rows[0].ok;
      if (held) return { busy: false, result: await work() };
    } finally {
      if (held) {
        await client
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [ADVANCE_LOCK_CLASS, merchantCode])
          .catch((e: Error) => (broken = e));
      }
      // A connection whose unlock failed may still hold the lock: it is closed, not pooled.
      client.off('error', onError);
      client.release(broken);
    }
    if (bound.expired()) return { busy: true };
    await sleep(RETRY_MS);
  }
}
