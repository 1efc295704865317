import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { connect } from 'nats';
import { ClockAdvancedResult, EVENTS_STREAM } from '@app/contracts';
import { BillingClockAdvanceUseCase } from '../../apps/billing/src/sandbox-clock/clock-advance.use-case';
import { BillingClient, billingMerchant, billingQuery } from '../billing/billing-fixtures';
import { runState } from '../support/run-state';
import { HttpResult, TestStack } from '../support/stack';
import { sleep } from '../support/wait';

jest.setTimeout(600_000);

const YEAR_MS = 365 * 24 * 3600_000;
/**
 * Daily subscriptions the sandbox merchant moves a year ahead: 4,392 renewals, about 10 s on an idle 2-core host
 * (longer on a busy one), well past the live window.
 */
const SANDBOX = 12;
/** Production subscriptions falling due on real time while the sandbox year runs, one every 400 ms from 1.5 s on. */
const LIVE = 10;
const LIVE_EVERY_MS = 400;
const LIVE_FROM_MS = 1500;

/**
 * A sandbox clock advance works inside its own call: it stops when the gateway stops waiting, a retry never
 * runs beside the call it replaces, and production renewals keep their time while a sandbox merchant moves 20
 * daily subscriptions a year ahead.
 */
describe('sandbox clock advance: isolated work', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: { RENEWAL_POLL_MS: '250', RENEWAL_BATCH: '50', SANDBOX_MAX_ADVANCE_WORK: '50000' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    // A sandbox year of 20 daily subscriptions leaves thousands of events in the run's EVENTS stream;
    // the next test files' gateways start fresh durable consumers that would read all of them first.
    const nc = await connect({ servers: runState().natsUrl });
    await (await nc.jetstreamManager()).streams.purge(EVENTS_STREAM);
    await nc.close();
  });

  const invoicesOf = async (merchantCode: string): Promise<number> =>
    (
      await billingQuery<{ n: number }>(stack, 'SELECT count(*)::int AS n FROM invoices WHERE merchant_code = $1', [
        merchantCode,
      ])
    )[0].n;

  async function dailySubscriptions(c: BillingClient, n: number): Promise<void> {
    const plan = await c.plan({ interval: 'day', amount: 100 });
    for (let i = 0; i < n; i++) await c.subscription({ planId: plan.id });
  }

  /** Billing's due work for a year's advance of `c`'s clock, as the gateway commands it, waiting `waitMs`. */
  const billingAdvance = (c: BillingClient, waitMs: number): Promise<ClockAdvancedResult> =>
    stack.services
      .get('billing')![0]
      .get(BillingClockAdvanceUseCase)
      .run(
        { requestId: randomUUID(), environment: 'sandbox', merchantCode: c.merchantCode, clockOffsetMs: YEAR_MS },
        { to: new Date(Date.now() + YEAR_MS).toISOString(), offsetMs: YEAR_MS, waitMs },
      );

  it('stops once the gateway no longer waits, and does nothing more afterwards', async () => {
    const c = await billingMerchant(stack);
    await dailySubscriptions(c, 20);
    const result = await billingAdvance(c, 1500);
    expect(result.unfinished).toBe(true);
    const stoppedAt = await invoicesOf(c.merchantCode);
    expect(result.ran).toBeGreaterThan(0);
    expect(stoppedAt).toBeLessThan(20 * 366);
    await sleep(2000);
    expect(await invoicesOf(c.merchantCode)).toBe(stoppedAt);
  });

  it('one advance of a merchant at a time: a retry waits for the call it replaces, or answers 409', async () => {
    const c = await billingMerchant(stack);
    await dailySubscriptions(c, 2);
    // The test holds the merchant's advance lock, as an advance whose client gave up still would.
    const holder = new Client({ connectionString: stack.env.BILLING_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [0x73636c6b, c.merchantCode]);
      expect(await billingAdvance(c, 500)).toEqual({ ran: 0, unfinished: true, busy: true });
      expect(await invoicesOf(c.merchantCode)).toBe(2);

      let answer: HttpResult | undefined;
      const retry = stack
        .http('POST', '/v1/sandbox/clock/advance', { key: c.key, body: { by: 'P3D' } })
        .then((r) => (answer = r));
      await sleep(1500);
      expect(answer).toBeUndefined();
      expect(await invoicesOf(c.merchantCode)).toBe(2);
      await holder.query('SELECT pg_advisory_unlock($1, hashtext($2))', [0x73636c6b, c.merchantCode]);
      await retry;
      expect(answer!.status).toBe(200);
      expect(await invoicesOf(c.merchantCode)).toBe(2 + 2 * 3);
    } finally {
      await holder.end();
    }
  });

  it(`production renewals run on time while a sandbox merchant advances ${SANDBOX} daily subscriptions by a year`, async () => {
    const sandbox = await billingMerchant(stack);
    await dailySubscriptions(sandbox, SANDBOX);
    const live = await billingMerchant(stack, 'production');
    await stack.productionSimulator(live.merchantCode);
    const livePlan = await live.plan({ amount: 900 });
    const first = await live.subscription({ planId: livePlan.id });
    // LIVE production subscriptions falling due on real time over the next seconds, one every LIVE_EVERY_MS.
    const start = Date.now() + LIVE_FROM_MS;
    await billingQuery(
      stack,
      `INSERT INTO subscriptions (id, merchant_code, environment, merchant_id, plan_id, status, customer_email,
         card_token, card_brand, billing_anchor, current_period_start, current_period_end, next_billing_date,
         cycles_completed, activated_at, metadata, created_at, updated_at)
       SELECT gen_random_uuid(), merchant_code, environment, merchant_id, plan_id, 'active', customer_email,
         card_token, card_brand, due - interval '1 month', due - interval '1 month', due, due, 1, now(), metadata,
         now(), now()
       FROM subscriptions, generate_series(0, $3 - 1) AS i,
            LATERAL (SELECT to_timestamp(($2::bigint + i * $4::int) / 1000.0) AS due) d
       WHERE id = $1`,
      [first.id, start, LIVE, LIVE_EVERY_MS],
    );

    const advanceStarted = Date.now();
    let advanceDone = 0;
    const advancing = (async () => {
      // A year in one call when it fits in the gateway's wait; otherwise 422 (or 504) and the retry goes on.
      for (let i = 0; i < 20; i++) {
        const r = await stack.http('POST', '/v1/sandbox/clock/advance', { key: sandbox.key, body: { by: 'P1Y' } });
        if (r.status === 200) break;
        expect([422, 504]).toContain(r.status);
      }
      advanceDone = Date.now();
    })();

    const lags = new Map<string, number>();
    while (lags.size < LIVE && Date.now() < start + LIVE_EVERY_MS * LIVE + 30_000) {
      const rows = await billingQuery<{ id: string; lag: number }>(
        stack,
        `SELECT s.id, (extract(epoch FROM min(i.created_at) - s.current_period_start) * 1000)::int AS lag
           FROM subscriptions s JOIN invoices i ON i.subscription_id = s.id AND i.period_start = s.current_period_start
          WHERE s.merchant_code = $1 AND s.id <> $2 AND s.cycles_completed = 2 GROUP BY s.id, s.current_period_start`,
        [live.merchantCode, first.id],
      );
      for (const r of rows) lags.set(r.id, r.lag);
      await sleep(250);
    }
    const lastLiveRenewed = Date.now();
    await advancing;
    // The sandbox year ran all along: SANDBOX subscriptions × 365 or 366 days.
    expect(await invoicesOf(sandbox.merchantCode)).toBeGreaterThanOrEqual(SANDBOX * 366);
    expect(advanceStarted).toBeLessThan(start);
    expect(advanceDone).toBeGreaterThan(lastLiveRenewed);
    // Every production renewal within a few polls of its due time, none waiting for the sandbox's year.
    expect(lags.size).toBe(LIVE);
    const worst = Math.max(...lags.values());
    console.log(
      `production renewal lag during the sandbox advance: worst ${worst} ms, sandbox advance ${advanceDone - advanceStarted} ms`,
    );
    expect(worst).toBeLessThan(5000);
  });
});
