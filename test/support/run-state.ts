import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The admin token every app of a test run starts with (libs/config refuses it in production). */
export const ADMIN_TOKEN = 'test-admin-token';

/** A nats-server global setup started (and teardown stops). */
export interface NatsServerState {
  url: string;
  pid: number;
  storeDir: string;
}

/** What global setup leaves for the test workers. */
export interface TestRunFile {
  runId: string;
  pgBase: string;
  /** The JetStream server of each Jest worker (index: JEST_WORKER_ID - 1), or one server every worker shares. */
  natsUrls: string[];
  /** The servers global setup started (none when TEST_NATS_URL names one). */
  natsServers: NatsServerState[];
  natsBinary?: string;
  /** The build of dist/ global setup started in the background (teardown waits for it). */
  buildPid?: number;
}

/** The run as one test worker sees it. */
export interface TestRunState {
  runId: string;
  pgBase: string;
  /** This worker's own NATS server: no other worker sees its subjects, streams or consumers. */
  natsUrl: string;
  natsBinary?: string;
}

/** Where global setup leaves the run's state; the path travels to test workers in TEST_RUN_STATE. */
export const stateFileFor = (runId: string): string => join(tmpdir(), `payments-platform-test-${runId}.json`);

export function runFile(): TestRunFile {
  const file = process.env.TEST_RUN_STATE;
  if (!file) throw new Error('TEST_RUN_STATE is not set: run the e2e tests through jest (global setup)');
  return JSON.parse(readFileSync(file, 'utf8')) as TestRunFile;
}

export function runState(): TestRunState {
  const { runId, pgBase, natsUrls, natsBinary } = runFile();
  // Jest numbers its workers 1..maxWorkers (1 when it runs in band), and a worker started again keeps its number.
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const natsUrl = natsUrls.length === 1 ? natsUrls[0] : natsUrls[worker - 1];
  if (!natsUrl) throw new Error(`No NATS server for Jest worker ${worker} (global setup started ${natsUrls.length})`);
  return { runId, pgBase, natsUrl, natsBinary };
}
