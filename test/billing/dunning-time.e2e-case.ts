import { TestStack } from '../support/stack';
import { billingQuery, cardData, CARDS, expectError } from './billing-fixtures';
import { minute, TimeClient, timeStack } from './renewal-fixtures';

jest.setTimeout(120_000);

/** Dunning driven by the sandbox clock: the ladder, terminal refusals, recovery, retry-payment. */
describe('dunning over time', () => {
  let stack: TestStack;

  beforeAll(async () => (stack = await timeStack()));
  afterAll(() => stack?.stop());

  async function pastDue(c: TimeClient, card: string = CARDS.mitInsufficientFunds) {
    const plan = await c.m.plan({ amount: 1500 });
    const s = await c.m.subscription({ planId: plan.id, card: cardData(card) });
    return { plan, s };
  }

  it('the full ladder: past_due, retries at +1/+3/+5/+7 days, suspended; a new card reactivates', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const { s } = await pastDue(c);
    await c.advance({ to: '2028-02-10T01:00:00Z' });
    let sub = await c.sub(s.id);
    expect(sub).toMatchObject({ status: 'past_due', dunningAttemptCount: 0 });
    expect(minute(sub.nextBillingDate)).toBe('2028-02-11T00:00');
    let [, renewal] = await c.invoices(s.id);
    expect(renewal).toMatchObject({ status: 'open', paymentAttemptCount: 1 });
    const full = await c.invoice(renewal.id);
    expect(full.attempts[0]).toMatchObject({ status: 'declined', refusalCode: { reasonCode: '51' } });

    const ladder: Array<[string, number, string | null]> = [
      ['2028-02-11T01:00:00Z', 1, '2028-02-13T00:00'],
      ['2028-02-13T01:00:00Z', 2, '2028-02-15T00:00'],
      ['2028-02-15T01:00:00Z', 3, '2028-02-17T00:00'],
    ];
    for (const [to, count, next] of ladder) {
      await c.advance({ to });
      sub = await c.sub(s.id);
      expect(sub).toMatchObject({ status: 'past_due', dunningAttemptCount: count });
      expect(minute(sub.nextBillingDate)).toBe(next);
    }
    await c.advance({ to: '2028-02-17T01:00:00Z' });
    sub = await c.sub(s.id);
    expect(sub).toMatchObject({ status: 'suspended', dunningAttemptCount: 4, nextBillingDate: null });
    [, renewal] = await c.invoices(s.id);
    expect(renewal).toMatchObject({ status: 'failed', paymentAttemptCount: 5 });
    expect((await c.renewalPayments(s.id)).map((p) => p.status)).toEqual(Array(5).fill('declined'));
    const events = await c.events(s.id);
    expect(events.filter((e) => e === 'subscription.payment_failed')).toHaveLength(5);
    expect(events).toEqual(
      expect.arrayContaining(['subscription.past_due', 'subscription.suspended', 'invoice.failed']),
    );
    // Nothing more is tried while suspended.
    await c.advance({ to: '2028-04-01T00:00:00Z' });
    expect(await c.renewalPayments(s.id)).toHaveLength(5);

    // A card that succeeds: a new period starting now, paid; active again.
    const r = await c.op(s.id, 'payment-method', { card: cardData() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'active', dunningAttemptCount: 0 });
    expect(minute(r.body.currentPeriodStart)).toBe('2028-04-01T00:00');
    const invoices = await c.invoices(s.id);
    expect(invoices.map((i) => i.status)).toEqual(['paid', 'failed', 'paid']);
    expect(await c.events(s.id)).toContain('subscription.reactivated');
    // And the renewals go on with the new card.
    await c.advance({ to: '2028-05-01T01:00:00Z' });
    expect((await c.invoices(s.id)).map((i) => i.status)).toEqual(['paid', 'failed', 'paid', 'paid']);
  });

  it('a terminal refusal suspends at once and fails the invoice', async () => {
    const c = await TimeClient.start(stack, '2028-03-05T00:00:00Z');
    const { s } = await pastDue(c, CARDS.mitFraud);
    await c.advance({ to: '2028-04-05T01:00:00Z' });
    expect(await c.sub(s.id)).toMatchObject({ status: 'suspended', nextBillingDate: null });
    const [, renewal] = await c.invoices(s.id);
    expect(renewal).toMatchObject({ status: 'failed', paymentAttemptCount: 1 });
    expect((await c.invoice(renewal.id)).attempts[0].refusalCode).toMatchObject({
      reasonCode: '59',
      recoveryAction: 'terminal',
    });
  });

  it('past_due recovered by payment-method: the open invoice is paid, renewals resume at the period end', async () => {
    const c = await TimeClient.start(stack, '2028-05-03T00:00:00Z');
    const { s } = await pastDue(c);
    await c.advance({ to: '2028-06-03T01:00:00Z' });
    expect((await c.sub(s.id)).status).toBe('past_due');
    const r = await c.op(s.id, 'payment-method', { card: cardData() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'active', dunningAttemptCount: 0, cyclesCompleted: 2 });
    expect(minute(r.body.nextBillingDate)).toBe('2028-07-03T00:00');
    const [, renewal] = await c.invoices(s.id);
    expect(renewal).toMatchObject({ status: 'paid', paymentAttemptCount: 2 });
    // No dunning retry fires any more; the next renewal is charged on the new card.
    await c.advance({ to: '2028-07-03T01:00:00Z' });
    const invoices = await c.invoices(s.id);
    expect(invoices.map((i) => [i.status, i.paymentAttemptCount])).toEqual([
      ['paid', 1],
      ['paid', 2],
      ['paid', 1],
    ]);
  });

  it('retry-payment: 402 counts in paymentAttemptCount only; success pays and reactivates', async () => {
    const c = await TimeClient.start(stack, '2028-06-07T00:00:00Z');
    const { s } = await pastDue(c);
    expectError(await c.op(s.id, 'retry-payment'), 409, 'INVALID_STATE');
    await c.advance({ to: '2028-07-07T01:00:00Z' });
    const before = await c.sub(s.id);
    const declined = await c.op(s.id, 'retry-payment');
    expectError(declined, 402, 'PAYMENT_DECLINED');
    const after = await c.sub(s.id);
    expect(after).toMatchObject({ status: 'past_due', dunningAttemptCount: 0 });
    expect(after.nextBillingDate).toBe(before.nextBillingDate);
    let [, renewal] = await c.invoices(s.id);
    expect(renewal).toMatchObject({ status: 'open', paymentAttemptCount: 2 });

    // The customer's bank now approves the vaulted card (a good token stands in for it).
    const good = await c.m.token();
    await billingQuery(stack, 'UPDATE subscriptions SET card_token = $2 WHERE id = $1', [s.id, good.token]);
    const ok = await c.op(s.id, 'retry-payment');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'active', dunningAttemptCount: 0, cyclesCompleted: 2 });
    [, renewal] = await c.invoices(s.id);
    expect(renewal).toMatchObject({ status: 'paid', paymentAttemptCount: 3 });
    expect(minute(ok.body.nextBillingDate)).toBe('2028-08-07T00:00');
    // The dunning retry that was scheduled for +1 day does not charge again.
    await c.advance({ to: '2028-07-09T00:00:00Z' });
    expect(await c.renewalPayments(s.id)).toHaveLength(3);
  });
});
