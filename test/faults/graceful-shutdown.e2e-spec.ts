import { Client } from 'pg';
import { AppProcess, ensureBuild, errorLines, ProcessSuite } from '../support/processes';
import { holdTable } from '../support/db';
import { sleep, waitUntil } from '../support/wait';
import { call, inProgress, Outcome, purchase, sandboxKey } from './drain-helpers';

/** SHUTDOWN_TIMEOUT_MS of the processes under test: each must have exited by then. */
const BOUND_MS = 15_000;
const IN_FLIGHT = 50;
/** How long the purchases stay held after the signal: longer than any fixed grace a shutdown might assume. */
const HELD_AFTER_SIGNAL_MS = 2_500;

const statuses = (outcomes: Outcome[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const k = o.status === undefined ? `error ${o.error}` : String(o.status);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
};

/** Exit 0 within the bound after the signal: done before SHUTDOWN_TIMEOUT_MS forced it. */
async function expectExitInTime(app: AppProcess, signalled: number): Promise<void> {
  const { exit, at } = await app.ended;
  expect({ app: app.name, exit, withinBound: at - signalled < BOUND_MS }).toEqual({
    app: app.name,
    exit: 0,
    withinBound: true,
  });
}

/**
 * Keeps the purchases held until HELD_AFTER_SIGNAL_MS after the signal (the stopping process must still be
 * waiting for them), releases them, and answers what their clients saw once the process has exited.
 */
async function releaseAfterSignal(
  app: AppProcess,
  hold: { release(): Promise<void> },
  signalled: number,
  inFlight: Promise<Outcome>[],
): Promise<Outcome[]> {
  await sleep(Math.max(0, signalled + HELD_AFTER_SIGNAL_MS - Date.now()));
  expect(app.entry.exited).toBe(false);
  await hold.release();
  const outcomes = await Promise.all(inFlight);
  await expectExitInTime(app, signalled);
  return outcomes;
}

/** What a stopped process logged from the signal on: it says it stopped, with no error and no forced exit. */
function expectCleanStop(app: AppProcess): void {
  const lines = app.logLines();
  const from = lines.findIndex((l) => l.msg === 'stopping');
  expect(from).toBeGreaterThanOrEqual(0);
  const after = lines.slice(from);
  expect(errorLines(after)).toEqual([]);
  expect(after.filter((l) => /could not|not stopped|still running/i.test(String(l.msg)))).toEqual([]);
  expect(after.map((l) => l.msg)).toContain('stopped');
}

/** Holds every purchase inside the payments service: each waits in its transaction until `release`. */
const holdPurchases = (suite: ProcessSuite) => holdTable(suite.databaseUrl('payments'), 'payments');

describe('SIGTERM (a rolling update or a scale-down): the apps drain what they hold, real processes', () => {
  let suite: ProcessSuite;
  /** The first payments replica: it serves the first test, and stays while the second replica stops. */
  let payments: AppProcess;

  beforeAll(async () => {
    ensureBuild();
    suite = await ProcessSuite.start({
      apps: ['gateway', 'payments', 'payment-links', 'billing'],
      env: { SHUTDOWN_TIMEOUT_MS: String(BOUND_MS) },
    });
  }, 300_000);
  afterAll(async () => {
    await suite?.stop();
  }, 60_000);

  it(`a gateway answers its ${IN_FLIGHT} purchases in flight with 200, takes no new connection, exits in time; the other replica serves`, async () => {
    payments = await suite.startApp('payments');
    const a = await suite.startApp('gateway', { name: 'gateway-a' });
    const b = await suite.startApp('gateway', { name: 'gateway-b' });
    const merchant = await sandboxKey(a);
    expect((await purchase(a.url, merchant)).status).toBe(200);

    const hold = await holdPurchases(suite);
    let outcomes: Outcome[];
    try {
      const inFlight = Array.from({ length: IN_FLIGHT }, () => purchase(a.url, merchant));
      await waitUntil(
        `gateway-a holds ${IN_FLIGHT} requests`,
        async () => (await inProgress(a, 'http')) - 1 >= IN_FLIGHT,
      );

      const signalled = Date.now();
      a.entry.child.kill('SIGTERM');
      // The listener closes at once: a load balancer's new connection goes to another replica.
      await waitUntil('gateway-a refuses new connections', async () => {
        const r = await call(a.url, 'GET', '/health/ready', { timeoutMs: 200 });
        return r.error !== undefined && /ECONNREFUSED/.test(r.error);
      });
      expect(Date.now() - signalled).toBeLessThan(5_000);
      // Meanwhile the other replica serves.
      const other = await Promise.all(
        Array.from({ length: 5 }, () => call(b.url, 'GET', '/v1/ping?service=payments', { key: merchant.key })),
      );
      expect(statuses(other)).toEqual({ 200: 5 });
      outcomes = await releaseAfterSignal(a, hold, signalled, inFlight);
    } finally {
      await hold.release();
    }
    // Every purchase in flight answered 200: none reset, none 5xx.
    expect(statuses(outcomes)).toEqual({ 200: IN_FLIGHT });
    expect((await purchase(b.url, merchant)).status).toBe(200);
    expectCleanStop(a);
  }, 180_000);

  it(`a payments replica answers the ${IN_FLIGHT} purchases it holds, takes no new command, exits in time; the other serves`, async () => {
    const gateway = await suite.startApp('gateway', { name: 'gateway-c' });
    const p1 = await suite.startApp('payments', { name: 'payments-2' });
    const p2 = payments;
    const merchant = await sandboxKey(gateway);
    // Warm both replicas (the queue group spreads these).
    await Promise.all(Array.from({ length: 4 }, () => purchase(gateway.url, merchant)));

    const hold = await holdPurchases(suite);
    let outcomes: Outcome[];
    let p1Held = 0;
    try {
      const inFlight = Array.from({ length: IN_FLIGHT }, () => purchase(gateway.url, merchant));
      await waitUntil(`the payments replicas hold ${IN_FLIGHT} commands`, async () => {
        p1Held = await inProgress(p1, 'rpc');
        return p1Held + (await inProgress(p2, 'rpc')) >= IN_FLIGHT;
      });
      expect(p1Held).toBeGreaterThan(0);

      const signalled = Date.now();
      p1.entry.child.kill('SIGTERM');
      // Readiness says 503 at once; the health server stays up while the replica drains.
      await waitUntil('payments-2 reports draining', async () => {
        // Before the signal lands readiness may wait on the database pool, which the held purchases fill.
        const r = await call(p1.url, 'GET', '/health/ready', { timeoutMs: 200 });
        return r.status === 503 && r.body?.status === 'draining';
      });
      expect(Date.now() - signalled).toBeLessThan(5_000);
      // New commands go to the other replica only.
      const pings = await Promise.all(
        Array.from({ length: 10 }, () => call(gateway.url, 'GET', '/v1/ping?service=payments', { key: merchant.key })),
      );
      expect(statuses(pings)).toEqual({ 200: 10 });
      expect(new Set(pings.map((p) => p.body.instanceId)).size).toBe(1);
      expect(await inProgress(p1, 'rpc')).toBe(p1Held);
      outcomes = await releaseAfterSignal(p1, hold, signalled, inFlight);
    } finally {
      await hold.release();
    }
    expect(statuses(outcomes)).toEqual({ 200: IN_FLIGHT });
    expectCleanStop(p1);

    // What the stopped replica committed was published (by its last relay round or by the other replica).
    const db = new Client({ connectionString: suite.databaseUrl('payments') });
    await db.connect();
    try {
      await waitUntil('every outbox row is published', async () => {
        const { rows } = await db.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
        return rows[0].n === 0;
      });
    } finally {
      await db.end();
    }
  }, 180_000);

  it('payment-links and billing stop as cleanly on SIGTERM: exit 0 in time, no error logged', async () => {
    const apps = [await suite.startApp('payment-links'), await suite.startApp('billing')];
    const signalled = Date.now();
    for (const app of apps) app.entry.child.kill('SIGTERM');
    for (const app of apps) {
      await expectExitInTime(app, signalled);
      expectCleanStop(app);
    }
  }, 180_000);
});
