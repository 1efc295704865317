// The test environment of every project: Jest's node environment, plus a process warning fails the run.
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
    if (event.name === 'test_done' && this.seen.length) event.test.errors.push(failure(this.seen.splice(0)));
    if (event.name === 'run_finish') {
      // Node emits a warning on the next tick: one raised by the file's last hook arrives after it.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.seen.length) state.unhandledErrors.push(failure(this.seen.splice(0)));
    }
  }
}

module.exports = WarningsFailEnvironment;
