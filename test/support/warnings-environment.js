// The test environment of every project: Jest's node environment, plus a process warning fails the run, plus
// each case of a test group keeps its own timeout (below).
// A library that deprecates or warns about what the code does (pg's "Calling client.query() when the client is
// already executing a query", Fastify's FSTWRN004 "error handler overridden in the same scope") fails the test
// during which it came, or the test file when it came between tests (a hook, an app closing). The listener is on
// the runner's own process object: the one a test file sees is Jest's copy, which never hears the event.
const { setImmediate } = require('node:timers');
const { TestEnvironment } = require('jest-environment-node');

/** Warnings a test run accepts: [code or message fragment, reason]. Empty, and meant to stay so. */
const ALLOWED = [];

const allowed = (w) => ALLOWED.some(([what]) => w.code === what || String(w.message).includes(what));

function failure(list) {
  const lines = list.map((w) => `${w.name}${w.code ? ` [${w.code}]` : ''}: ${w.stack ?? w.message}`);
  const error = new Error(
    `A process warning fails the test run (test/support/warnings-environment.js):\n${lines.join('\n\n')}`,
  );
  error.stack = error.message;
  return error;
}

/** The timeouts of a group's cases (test/support/run-group.ts): by the name of the describe each runs in. */
const CASE_TIMEOUTS = Symbol.for('payments.caseTimeouts');

/** The timeout of the case a test or hook belongs to, or undefined outside a case or when it set none. */
function caseTimeout(timeouts, block) {
  // A Map of the test file's realm: not an instance of this file's Map.
  if (typeof timeouts?.has !== 'function') return undefined;
  for (let b = block; b; b = b.parent) if (timeouts.has(b.name)) return timeouts.get(b.name);
  return undefined;
}

class WarningsFailEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.seen = [];
    this.listener = (w) => {
      if (!allowed(w)) this.seen.push(w);
    };
  }

  async setup() {
    await super.setup();
    process.on('warning', this.listener);
  }

  async teardown() {
    process.off('warning', this.listener);
    await super.teardown();
  }

  async handleTestEvent(event, state) {
    // A case's jest.setTimeout, for its tests and hooks that name no timeout of their own. Jest reads the
    // timeout after these events, so this is the one that holds.
    const item = event.name === 'test_fn_start' ? event.test : event.name === 'hook_start' ? event.hook : undefined;
    if (item && !item.timeout) {
      const own = caseTimeout(this.global[CASE_TIMEOUTS], item.parent);
      if (own !== undefined) item.timeout = own;
    }
    if (event.name === 'test_done' && this.seen.length) event.test.errors.push(failure(this.seen.splice(0)));
    if (event.name === 'run_finish') {
      // Node emits a warning on the next tick: one raised by the file's last hook arrives after it.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.seen.length) state.unhandledErrors.push(failure(this.seen.splice(0)));
    }
  }
}

module.exports = WarningsFailEnvironment;
