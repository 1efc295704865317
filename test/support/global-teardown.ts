import { unlinkSync } from 'node:fs';
import { Client } from 'pg';
import { stopNats } from './global-setup';
import { runFile } from './run-state';

/** Drops every database of this run and stops the run's nats-servers. */
export default async function globalTeardown(): Promise<void> {
  const state = runFile();
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
  state.natsServers.forEach(stopNats);
  // A build still writing dist/ is left to finish, so the next command does not find it half written.
  while (state.buildPid && isAlive(state.buildPid)) await new Promise((r) => setTimeout(r, 100));
  unlinkSync(process.env.TEST_RUN_STATE!);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
