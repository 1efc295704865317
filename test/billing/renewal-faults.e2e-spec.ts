import { TestStack } from '../support/stack';
import { billingQuery, paymentsDb } from './billing-fixtures';
import { TimeClient } from './renewal-fixtures';
import { sleep } from '../support/wait';

jest.setTimeout(480_000);

/** Exactly-once renewals: a crash between the charge and its record, and two replicas on one database. */
describe('renewal faults and replicas', () => {
  let stack: TestStack;

  afterEach(() => stack?.stop());

  it('billing dies between the charge and the record; after a restart: one payment, one paid invoice', async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: { RENEWAL_POLL_MS: '0', RENEWAL_LEASE_MS: '1000' },
      faults: { billing: { crashAfterCharge: 1 } },
    });
    const c = await TimeClient.start(stack, '2028-01-05T00:00:00Z');
    const plan = await c.m.plan({ amount: 2500 });
    const s = await c.m.subscription({ planId: plan.id });
    const crashed = await c.m.stack.http('POST', '/v1/sandbox/clock/advance', {
      key: c.m.key,
      body: { to: '2028-02-05T01:00:00Z' },
    });
    expect(crashed.status).toBeGreaterThanOrEqual(500);
    // Charged at payments, not recorded at billing.
    expect((await c.renewalPayments(s.id)).map((p) => p.status)).toEqual(['captured']);
    const [, open] = await c.invoices(s.id);
    expect(open).toMatchObject({ status: 'open', paymentAttemptCount: 0 });

    // Restart billing (a new process without the fault), wait out the dead worker's lease, run the step again.
    await stack.stopService('billing');
    await stack.startService('billing');
    await sleep(1200);
    await c.advance({ to: '2028-02-05T02:00:00Z' });
    const charges = await c.renewalPayments(s.id);
    expect(charges.map((p) => [p.value, p.status])).toEqual([[2500, 'captured']]);
    const [, renewal] = await c.invoices(s.id);
    expect(renewal).toMatchObject({ status: 'paid', paymentAttemptCount: 1 });
    expect((await c.invoice(renewal.id)).attempts).toHaveLength(1);
    expect(await c.sub(s.id)).toMatchObject({ status: 'active', cyclesCompleted: 2 });
    expect(
      await billingQuery(stack, 'SELECT count(*)::int AS n FROM invoices WHERE subscription_id = $1', [s.id]),
    ).toEqual([{ n: 2 }]);
  });

  it('two billing replicas renew 1,000 due subscriptions: each charged exactly once', async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      // Modest concurrency: the in-process payments service shares this Jest process and a busy 2-core host.
      env: { RENEWAL_POLL_MS: '100', RENEWAL_BATCH: '50', RENEWAL_CONCURRENCY: '8', RENEWAL_LEASE_MS: '20000' },
    });
    await stack.startService('billing');
    expect(stack.services.get('billing')).toHaveLength(2);
    const c = await TimeClient.start(stack);
    const plan = await c.m.plan({ amount: 100 });
    const first = await c.m.subscription({ planId: plan.id });
    // 1,000 copies of a real subscription (same vaulted card), due an hour ago on real time.
    await billingQuery(
      stack,
      `INSERT INTO subscriptions (id, merchant_code, environment, merchant_id, plan_id, status, customer_email,
         card_token, card_brand, billing_anchor, current_period_start, current_period_end, next_billing_date,
         cycles_completed, activated_at, metadata, created_at, updated_at)
       SELECT gen_random_uuid(), merchant_code, environment, merchant_id, plan_id, 'active', customer_email,
         card_token, card_brand, now() - interval '1 month 1 hour', now() - interval '1 month 1 hour',
         now() - interval '1 hour', now() - interval '1 hour', 1, now(), metadata, now(), now()
       FROM subscriptions, generate_series(1, 1000) WHERE id = $1`,
      [first.id],
    );
    const paid = async () =>
      (
        await billingQuery(
          stack,
          `SELECT count(*)::int AS n FROM invoices i JOIN subscriptions s ON s.id = i.subscription_id
            WHERE s.merchant_code = $1 AND s.id <> $2 AND i.status = 'paid'`,
          [c.m.merchantCode, first.id],
        )
      )[0].n as number;
    const deadline = Date.now() + 400_000;
    while ((await paid()) < 1000 && Date.now() < deadline) await sleep(500);
    expect(await paid()).toBe(1000);
    await sleep(500);
    const invoices = await billingQuery<{ id: string }>(
      stack,
      `SELECT i.id FROM invoices i JOIN subscriptions s ON s.id = i.subscription_id
        WHERE s.merchant_code = $1 AND s.id <> $2`,
      [c.m.merchantCode, first.id],
    );
    expect(invoices).toHaveLength(1000);
    const perInvoice = await paymentsDb<{ n: number }>(
      stack,
      `SELECT count(*)::int AS n FROM payments
        WHERE merchant_code = $1 AND order_code LIKE 'inv\\_%' GROUP BY split_part(order_code, '_', 2)`,
      [c.m.merchantCode],
    );
    expect(perInvoice).toHaveLength(1000);
    expect(perInvoice.every((r) => r.n === 1)).toBe(true);
  });
});
