import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { Client } from 'pg';
import { stateFileFor, TestRunState } from './run-state';

const NATS_BINARIES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

// The bench's port picker (below the ephemeral range, so no outgoing connection takes it first).
const { freePort } = require('../../bench/lib/procs') as { freePort(): Promise<number> };
// The services expect autovacuum on, as the bench does (bench/lib/autovacuum.js).
const { turnOnAutovacuum } = require('../../bench/lib/autovacuum') as {
  turnOnAutovacuum(pgBase: string): Promise<string>;
};

/**
 * One run: a run id that prefixes every database the tests create (dropped in teardown), and a private
 * nats-server with JetStream on a free port, so nothing else on this machine shares the tests' subjects.
 */
export default async function globalSetup(): Promise<void> {
  // The gateway in the tests runs from the sources but serves the browser code from dist/browser.
  const browser = spawnSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-browser.js')], {
    stdio: 'inherit',
  });
  if (browser.status !== 0) throw new Error('Building the browser code (scripts/build-browser.js) failed');
  // ... and the merchant dashboard from dist/dashboard.
  const dashboard = spawnSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-dashboard.js')], {
    stdio: 'inherit',
  });
  if (dashboard.status !== 0) throw new Error('Building the dashboard (scripts/build-dashboard.js) failed');
  const pgBase = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
  const pg = new Client({ connectionString: `${pgBase}/postgres` });
  await pg.connect().catch((e: Error) => {
    throw new Error(
      `PostgreSQL does not answer at ${pgBase} (${e.message}). Start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`,
    );
  });
  await pg.end();
  const autovacuum = await turnOnAutovacuum(pgBase);
  if (autovacuum.startsWith('still off')) process.stderr.write(`\nPostgreSQL autovacuum is ${autovacuum}\n`);

  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const state: TestRunState = { runId, pgBase, natsUrl: process.env.TEST_NATS_URL ?? '' };
  const binary = NATS_BINARIES.find((b) => existsSync(b));
  if (!state.natsUrl && binary) {
    // Two runs may pick the same free port at once: the server is named after this run, and the run only
    // goes on once it talks to a server of that name (else it tries another port).
    for (let attempt = 0; attempt < 5 && !state.natsPid; attempt++) {
      const port = await freePort();
      const dir = mkdtempSync(join(tmpdir(), 'nats-test-'));
      const name = `test-${runId}-${attempt}`;
      const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir, '-n', name], {
        stdio: 'ignore',
        detached: true,
      });
      child.unref();
      const url = `nats://127.0.0.1:${port}`;
      if ((await waitForNats(url)) === name) {
        Object.assign(state, {
          natsUrl: url,
          natsPid: child.pid,
          natsBinary: binary,
          natsStoreDir: dir,
          natsPort: port,
        });
      } else {
        child.kill();
        rmSync(dir, { recursive: true, force: true });
      }
    }
    if (!state.natsPid) throw new Error('Could not start a private nats-server for the test run');
  }
  state.natsUrl ||= process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  await waitForNats(state.natsUrl);
  const file = stateFileFor(runId);
  writeFileSync(file, JSON.stringify(state));
  process.env.TEST_RUN_STATE = file;
}

/** The name of the server answering at `url`. */
async function waitForNats(url: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    try {
      const nc = await connect({ servers: url, timeout: 500 });
      const name = nc.info?.server_name ?? '';
      await nc.close();
      return name;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`NATS does not answer at ${url}`);
}
