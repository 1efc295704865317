import { randomUUID } from 'node:crypto';
import { Metrics } from '@app/observability';
import { TestStack } from '../support/stack';
import { ADMIN_TOKEN } from '../support/run-state';
import { billingMerchant, billingQuery, expectError } from './billing-fixtures';
import { minute, TimeClient } from './renewal-fixtures';
import { sleep } from '../support/wait';

jest.setTimeout(180_000);

/** 2^52: two of them on a `sum` meter make 2^53, one past Number.MAX_SAFE_INTEGER. */
const HALF = 4_503_599_627_370_496;

/**
 * Poison values: usage that would push a period total, a meter's rated amount or an invoice past the safe
 * bound is refused at ingest (400 VALIDATION_FAILED); a renewal that still fails for a reason retrying cannot
 * change (here: usage written straight into the database, as legacy data would be) is parked after one
 * attempt, with a reason, a metric and an event, and the merchant's sandbox clock keeps advancing.
 */
describe('usage past the safe bound', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: { RENEWAL_POLL_MS: '200', RENEWAL_LEASE_MS: '1000' },
    });
  });
  afterAll(() => stack?.stop());

  const parkedTotal = async (): Promise<number> => {
    const text = await stack.services.get('billing')![0].get(Metrics).text();
    const line = text.split('\n').find((l) => l.startsWith('billing_renewals_parked_total'));
    return Number(line?.split(' ').pop() ?? NaN);
  };

  async function meters(c: TimeClient, specs: Record<string, number>): Promise<void> {
    for (const [code, unitAmount] of Object.entries(specs)) {
      const r = await c.m.post('/v1/subscription/meter', {
        code,
        name: code,
        aggregation: 'sum',
        pricing: { scheme: 'per_unit', unitAmount },
      });
      expect(r.status).toBe(201);
    }
  }

  it('refuses at ingest what would pass the bound: a period total, a rated amount, an invoice', async () => {
    const c = await TimeClient.start(stack, '2028-02-01T00:00:00Z');
    await meters(c, { calls: 0, priced: 1000, half1: 1, half2: 1 });
    const plan = await c.m.plan({ amount: 1000, meterCodes: ['calls', 'priced', 'half1', 'half2'] });
    const s = await c.m.subscription({ planId: plan.id });
    const usage = (meterCode: string, quantity: number) =>
      c.m.post('/v1/subscription/usage', { subscriptionId: s.id, meterCode, quantity }, randomUUID());

    // The example: the second 2^52 would make the period's sum 2^53.
    expect((await usage('calls', HALF)).status).toBe(201);
    const second = await usage('calls', HALF);
    expectError(second, 400, 'VALIDATION_FAILED', 'quantity');
    expect(second.body.error.message).toMatch(/sum of the meter to 9007199254740992, past 9007199254740991/);
    // A tier product: 2^50 units at 1,000 minor units each.
    const priced = await usage('priced', 2 ** 50);
    expectError(priced, 400, 'VALIDATION_FAILED', 'quantity');
    expect(priced.body.error.message).toMatch(/meter's charge for the period past/);
    // The invoice: the base fee plus two lines of 2^52 each.
    expect((await usage('half1', HALF)).status).toBe(201);
    const invoice = await usage('half2', HALF);
    expectError(invoice, 400, 'VALIDATION_FAILED', 'quantity');
    expect(invoice.body.error.message).toMatch(/next invoice past/);
    expect((await usage('half2', 1)).status).toBe(201);

    // In a batch, each event on its own, counted in order: the first fits, the second does not.
    const batch = await c.m.post(
      '/v1/subscription/usage/batch',
      {
        events: [
          { subscriptionId: s.id, meterCode: 'calls', quantity: 5, idempotencyKey: randomUUID() },
          { subscriptionId: s.id, meterCode: 'calls', quantity: HALF - 5, idempotencyKey: randomUUID() },
        ],
      },
      null,
    );
    expect(batch.body.results.map((r: { status: number }) => r.status)).toEqual([201, 400]);
    expect(batch.body.results[1].error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'quantity' });
    // Nothing half-written: the refused events are not stored.
    const [stored] = await billingQuery(
      stack,
      'SELECT count(*)::int AS n, sum(quantity)::text AS total FROM usage_events WHERE subscription_id = $1',
      [s.id],
    );
    expect(stored).toEqual({ n: 4, total: String(2n * BigInt(HALF) + 6n) });

    // The renewal rates February; March starts from nothing again.
    await c.advance({ to: '2028-03-01T01:00:00Z' });
    const [, renewal] = await c.invoices(s.id);
    expect(renewal.lines[1]).toMatchObject({ quantity: HALF + 5, amount: 0 });
    expect((await usage('calls', HALF)).status).toBe(201);
    expectError(await usage('calls', HALF), 400, 'VALIDATION_FAILED', 'quantity');
  });

  it('a renewal that fails deterministically is parked after one attempt; the clock still advances', async () => {
    const c = await TimeClient.start(stack, '2028-05-01T00:00:00Z');
    await meters(c, { legacy: 1 });
    const plan = await c.m.plan({ amount: 1000, meterCodes: ['legacy'] });
    const s = await c.m.subscription({ planId: plan.id });
    const before = await parkedTotal();
    await legacyUsage(s.id, 'legacy', c.m.merchantCode, '2028-05-10T00:00:00Z');

    // Not 500: the poisoned renewal is parked, the rest of the advance goes on.
    expect(await c.advance({ to: '2028-06-01T01:00:00Z' })).toMatch(/^2028-06-01T01/);
    const parked = await c.sub(s.id);
    expect(parked.status).toBe('active');
    expect(minute(parked.nextBillingDate)).toBe('2028-06-01T00:00');
    expect(parked.renewalParked.reason).toMatch(/^RangeError: .*exceeds Number.MAX_SAFE_INTEGER/);
    expect(await c.invoices(s.id)).toHaveLength(1);
    expect((await c.events(s.id)).filter((t) => t === 'subscription.renewal_parked')).toHaveLength(1);
    expect(await parkedTotal()).toBe(before + 1);

    // Not retried: further advances and the scheduler leave it alone (one attempt, one event, one count).
    expect(await c.advance({ to: '2028-07-15T00:00:00Z' })).toMatch(/^2028-07-15/);
    await sleep(2500);
    expect((await c.events(s.id)).filter((t) => t === 'subscription.renewal_parked')).toHaveLength(1);
    expect(await parkedTotal()).toBe(before + 1);
    expect(await c.invoices(s.id)).toHaveLength(1);

    // Fixed (the bad rows removed), an operator retries it on the internal port: the next advance renews it.
    const retry = (environment: string, idempotencyKey = randomUUID()) =>
      stack.http('POST', `/v1/admin/merchants/${c.m.merchantCode}/subscriptions/${s.id}/retry-parked-renewal`, {
        key: ADMIN_TOKEN,
        port: 'internal',
        body: { environment },
        headers: { 'idempotency-key': idempotencyKey },
      });
    expectError(await retry('production'), 404, 'NOT_FOUND');
    await billingQuery(stack, 'DELETE FROM usage_events WHERE subscription_id = $1', [s.id]);
    const key = randomUUID();
    const lifted = await retry('sandbox', key);
    expect(lifted.status).toBe(200);
    expect(lifted.body.renewalParked).toBeNull();
    // The operator's retry of the same request (same Idempotency-Key) replays; another body with it is 422.
    expect(await retry('sandbox', key)).toMatchObject({ status: 200, body: lifted.body });
    expectError(await retry('production', key), 422, 'IDEMPOTENCY_KEY_REUSED');
    expectError(await retry('sandbox'), 409, 'INVALID_STATE');
    await c.advance({ to: '2028-07-16T00:00:00Z' });
    expect((await c.sub(s.id)).renewalParked).toBeNull();
    expect((await c.invoices(s.id)).length).toBeGreaterThanOrEqual(3);
  });

  it('the production scheduler parks it too, once, and goes on renewing the others', async () => {
    const m = await billingMerchant(stack, 'production');
    await stack.productionSimulator(m.merchantCode);
    const r = await m.post('/v1/subscription/meter', {
      code: 'legacy',
      name: 'legacy',
      aggregation: 'sum',
      pricing: { scheme: 'per_unit', unitAmount: 1 },
    });
    expect(r.status).toBe(201);
    const plan = await m.plan({ amount: 700, meterCodes: ['legacy'] });
    const poisoned = await m.subscription({ planId: plan.id });
    const healthy = await m.subscription({ planId: plan.id });
    const before = await parkedTotal();
    await legacyUsage(poisoned.id, 'legacy', m.merchantCode, new Date(Date.now() - 60_000).toISOString());
    // Both fall due on real time now (their period moved back a month).
    await billingQuery(
      stack,
      `UPDATE subscriptions SET billing_anchor = now() - interval '1 month', current_period_start = now() - interval '1 month',
         current_period_end = now(), next_billing_date = now(), start_at = now() - interval '1 month',
         created_at = now() - interval '1 month' WHERE id = ANY($1::uuid[])`,
      [[poisoned.id, healthy.id]],
    );
    await billingQuery(
      stack,
      `UPDATE usage_events SET occurred_at = now() - interval '1 day' WHERE subscription_id = $1`,
      [poisoned.id],
    );
    const invoicesOf = async (id: string) =>
      (await billingQuery(stack, 'SELECT count(*)::int AS n FROM invoices WHERE subscription_id = $1', [id]))[0].n;
    for (let i = 0; i < 50 && (await invoicesOf(healthy.id)) < 2; i++) await sleep(200);
    expect(await invoicesOf(healthy.id)).toBe(2);
    for (let i = 0; i < 50 && (await parkedTotal()) === before; i++) await sleep(200);
    // Several polls and leases later: parked once, never invoiced.
    await sleep(3000);
    expect(await parkedTotal()).toBe(before + 1);
    expect(await invoicesOf(poisoned.id)).toBe(1);
    const [row] = await billingQuery(
      stack,
      'SELECT renewal_parked_reason AS reason, status FROM subscriptions WHERE id = $1',
      [poisoned.id],
    );
    expect(row.reason).toMatch(/^RangeError: /);
    expect(row.status).toBe('active');
  });

  /** Two 2^52 events written straight into the table, past ingest's checks (as data from before them). */
  async function legacyUsage(subscriptionId: string, meterCode: string, merchantCode: string, at: string) {
    await billingQuery(
      stack,
      `INSERT INTO usage_events (id, subscription_id, meter_id, quantity, occurred_at, created_at)
       SELECT gen_random_uuid(), $1, m.id, $4, $3, now() FROM meters m, generate_series(1, 2)
        WHERE m.code = $2 AND m.merchant_code = $5`,
      [subscriptionId, meterCode, at, HALF, merchantCode],
    );
  }
});
