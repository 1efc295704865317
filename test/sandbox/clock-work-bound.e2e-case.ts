import { billingMerchant, billingQuery } from '../billing/billing-fixtures';
import { expectError, paymentsQuery, sandboxMerchant, usd } from '../payments/payments-fixtures';
import { HttpResult, TestStack } from '../support/stack';

const DAY = 24 * 3600_000;
const MAX_WORK = 3;

const near = (iso: string, expected: number): void => {
  expect(Math.abs(Date.parse(iso) - expected)).toBeLessThan(5_000);
};

/** One clock advance runs at most SANDBOX_MAX_ADVANCE_WORK pieces of due work in each service. */
describe('sandbox clock advance: bounded work', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: {
        SANDBOX_MAX_ADVANCE_WORK: String(MAX_WORK),
        AUTH_HOLD_DAYS: '7',
        HOLD_EXPIRY_SWEEP_MS: '0',
        // Billing checks its bound between claims of this many renewals.
        RENEWAL_BATCH: '2',
      },
    });
  });
  afterAll(() => stack.stop());

  const advance = (key: string, body: Record<string, unknown>): Promise<HttpResult> =>
    stack.http('POST', '/v1/sandbox/clock/advance', { key, body });
  const clockOf = async (key: string): Promise<string> =>
    (await stack.http('GET', '/v1/sandbox/clock', { key })).body.now;

  it('more hold expiries than the bound: 422, the clock stays, what ran stays done; a retry finishes', async () => {
    const m = await sandboxMerchant(stack);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await m.authorize({ amount: usd(100 + i) })).body.id);
    const cancelled = async () =>
      (
        await paymentsQuery<{ n: number }>(
          stack,
          `SELECT count(*)::int AS n FROM payments WHERE id = ANY($1) AND status = 'cancelled'`,
          [ids],
        )
      )[0].n;

    const r = await advance(m.key, { by: 'P8D' });
    expectError(r, 422, 'CLOCK_ADVANCE_TOO_FAR');
    expect(r.body.error.message).toMatch(/More than 3 pieces of due work/);
    near(await clockOf(m.key), Date.now());
    expect(await cancelled()).toBe(MAX_WORK);

    expect((await advance(m.key, { by: 'P8D' })).status).toBe(200);
    expect(await cancelled()).toBe(5);
    near(await clockOf(m.key), Date.now() + 8 * DAY);
  });

  it('more renewals than the bound: 422 with the clock in place; a retry renews the rest once', async () => {
    const c = await billingMerchant(stack);
    const plan = await c.plan();
    for (let i = 0; i < 6; i++) await c.subscription({ planId: plan.id });
    const invoices = async () =>
      (
        await billingQuery<{ n: number }>(stack, 'SELECT count(*)::int AS n FROM invoices WHERE merchant_code = $1', [
          c.merchantCode,
        ])
      )[0].n;
    expect(await invoices()).toBe(6);

    expectError(await advance(c.key, { by: 'P1M1D' }), 422, 'CLOCK_ADVANCE_TOO_FAR');
    near(await clockOf(c.key), Date.now());
    // Two claims of two renewals, then the bound (3) is reached with two still due.
    expect(await invoices()).toBe(10);

    expect((await advance(c.key, { by: 'P1M1D' })).status).toBe(200);
    expect(await invoices()).toBe(12);
  });
});
