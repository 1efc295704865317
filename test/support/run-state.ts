import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The admin token every app of a test run starts with (libs/config refuses it in production). */
export const ADMIN_TOKEN = 'test-admin-token';

export interface TestRunState {
  runId: string;
  pgBase: string;
  natsUrl: string;
  natsPid?: number;
  natsBinary?: string;
  natsStoreDir?: string;
  natsPort?: number;
}

/** Where global setup leaves the run's state; the path travels to test workers in TEST_RUN_STATE. */
export const stateFileFor = (runId: string): string => join(tmpdir(), `payments-platform-test-${runId}.json`);

export function runState(): TestRunState {
  const file = process.env.TEST_RUN_STATE;
  if (!file) throw new Error('TEST_RUN_STATE is not set: run the e2e tests through jest (global setup)');
  return JSON.parse(readFileSync(file, 'utf8')) as TestRunState;
}
