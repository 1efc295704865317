import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { Client } from 'pg';
import { NatsServerState, stateFileFor, TestRunFile } from './run-state';

const NATS_BINARIES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

// The bench's port picker (below the ephemeral range, so no outgoing connection takes it first).
const { freePort } = require('../../bench/lib/procs') as { freePort(): Promise<number> };
// The services expect autovacuum on, as the bench does (bench/lib/autovacuum.js).
const { turnOnAutovacuum } = require('../../bench/lib/autovacuum') as {
  turnOnAutovacuum(pgBase: string): Promise<string>;
};

/**
 * One run: a run id that prefixes every database the tests create (dropped in teardown), and a private
 * nats-server with JetStream on a free port for each Jest worker, so nothing else on this machine, and no other
 * worker of the run, shares a test's subjects, streams or consumers.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
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
  const buildPid = await startBuild();
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
  const state: TestRunFile = { runId, pgBase, natsUrls: [], natsServers: [], buildPid };
  const binary = NATS_BINARIES.find((b) => existsSync(b));
  const shared = process.env.TEST_NATS_URL ?? (binary ? undefined : (process.env.NATS_URL ?? 'nats://127.0.0.1:4222'));
  if (shared) {
    await waitForNats(shared);
    state.natsUrls = [shared];
  } else {
    state.natsBinary = binary;
    const workers = Math.max(1, globalConfig.maxWorkers);
    const started = await Promise.allSettled(
      Array.from({ length: workers }, (_, i) => startNats(binary!, `test-${runId}-w${i + 1}`)),
    );
    state.natsServers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      state.natsServers.forEach(stopNats);
      throw failed.reason;
    }
    state.natsUrls = state.natsServers.map((s) => s.url);
  }
  const file = stateFileFor(runId);
  writeFileSync(file, JSON.stringify(state));
  process.env.TEST_RUN_STATE = file;
}

/**
 * Brings dist/ up to date (scripts/ensure-build.js) in the background while the first tests run: the tests that
 * start the apps as processes (ensureBuild) wait for it under the same lock, instead of the first of them
 * building while the others wait. Answers once the build holds its lock (or has already finished), with its pid.
 */
async function startBuild(): Promise<number> {
  const root = join(__dirname, '..', '..');
  const child = spawn(process.execPath, [join(root, 'scripts', 'ensure-build.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  const { buildLockFile } = require('../../scripts/ensure-build') as { buildLockFile(root: string): string };
  const lock = buildLockFile(root);
  const holds = () => {
    try {
      return readFileSync(lock, 'utf8').trim() === String(child.pid);
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 500 && !exited && !holds(); i++) await new Promise((r) => setTimeout(r, 20));
  return child.pid!;
}

/** Stops a server global setup started and removes its store. */
export function stopNats(server: NatsServerState): void {
  try {
    process.kill(server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  rmSync(server.storeDir, { recursive: true, force: true });
}

/**
 * A nats-server with JetStream in a store directory of its own. Two starters may pick the same free port at
 * once: the server is named, and only a server answering with that name is taken (else another port is tried).
 */
async function startNats(binary: string, name: string): Promise<NatsServerState> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const storeDir = mkdtempSync(join(tmpdir(), 'nats-test-'));
    const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir, '-n', name], {
      stdio: 'ignore',
      detached: true,
    });
    child.unref();
    const server = { url: `nats://127.0.0.1:${port}`, pid: child.pid!, storeDir };
    if ((await waitForNats(server.url).catch(() => '')) === name) return server;
    stopNats(server);
  }
  throw new Error(`Could not start a private nats-server (${name}) for the test run`);
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
