import { join, relative } from 'node:path';

const { groups } = require('./groups') as { groups(): { folder: string; cases: string[] }[] };

const ROOT = join(__dirname, '..', '..');
/** Where `jest.setTimeout` keeps its value (jest-circus reads it when the run starts). */
const TEST_TIMEOUT = Symbol.for('TEST_TIMEOUT_SYMBOL');
/** Each case's own timeout, by its describe's name; test/support/warnings-environment.js applies them. */
const CASE_TIMEOUTS = Symbol.for('payments.caseTimeouts');

type TimeoutGlobal = Record<symbol, unknown>;

/**
 * Runs the cases of `folder` (its `*.e2e-case.ts`, test/support/groups.js), each inside a `describe` named after
 * its path, so its hooks stay its own and a failure names its file. A case's `jest.setTimeout` holds for its own
 * tests and hooks only: it is noted here, taken back before the next case loads, and applied when each of
 * them starts (test/support/warnings-environment.js); a case that sets none gets jest.config.js's testTimeout.
 */
export function runGroup(folder: string): void {
  const name = relative(ROOT, folder).split('\\').join('/');
  const group = groups().find((g) => g.folder === name);
  if (!group?.cases.length) throw new Error(`${name} has no *.e2e-case.ts to run`);
  const scope = globalThis as unknown as TimeoutGlobal;
  const timeouts = new Map<string, number>();
  scope[CASE_TIMEOUTS] = timeouts;
  for (const file of group.cases) {
    describe(file, () => {
      delete scope[TEST_TIMEOUT];
      require(join(ROOT, file));
      const own = scope[TEST_TIMEOUT];
      if (typeof own === 'number') timeouts.set(file, own);
      delete scope[TEST_TIMEOUT];
    });
  }
}
