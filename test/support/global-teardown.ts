import { rmSync, unlinkSync } from 'node:fs';
import { Client } from 'pg';
import { runState } from './run-state';

/** Drops every database of this run and stops the run's nats-server. */
export default async function globalTeardown(): Promise<void> {
  const state = runState();
  const pg = new Client({ connectionString: `${state.pgBase}/postgres` });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `t_${state.runId}_%`,
    ]);
    for (const { datname } of rows) await pg.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await pg.end();
  }
  if (state.natsPid) {
    try {
      process.kill(state.natsPid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  if (state.natsStoreDir) rmSync(state.natsStoreDir, { recursive: true, force: true });
  unlinkSync(process.env.TEST_RUN_STATE!);
}
