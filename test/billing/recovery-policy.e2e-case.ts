import { TestStack } from '../support/stack';
import { cardData, CARDS, expectError } from './billing-fixtures';
import { minute, TimeClient, timeStack } from './renewal-fixtures';

jest.setTimeout(120_000);

/** A merchant's recovery policy (PUT/GET /v1/subscription/recovery-policy) and dunning by it, on the sandbox clock. */
describe('recovery policy', () => {
  let stack: TestStack;

  beforeAll(async () => (stack = await timeStack()));
  afterAll(() => stack?.stop());

  const put = (c: TimeClient, body: Record<string, unknown>) =>
    stack.http('PUT', '/v1/subscription/recovery-policy', {
      key: c.m.key,
      body,
      headers: { 'idempotency-key': `rp-${Math.random()}` },
    });

  async function policy(c: TimeClient, body: Record<string, unknown>): Promise<Record<string, any>> {
    const r = await put(c, body);
    if (r.status !== 200) throw new Error(`policy: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  async function subscribed(c: TimeClient, card: string) {
    const plan = await c.m.plan({ amount: 1500 });
    return c.m.subscription({ planId: plan.id, card: cardData(card) });
  }

  describe('the API', () => {
    it('answers the default (version 0) until set; each change is the next version, defaults filled', async () => {
      const c = await TimeClient.start(stack, '2028-01-01T00:00:00Z');
      const initial = await c.m.get('/v1/subscription/recovery-policy');
      expect(initial.status).toBe(200);
      expect(initial.body).toEqual({
        version: 0,
        retryDays: [1, 3, 5, 7],
        insufficientFunds: 'schedule',
        dayOfMonth: null,
        switchMethod: 'schedule',
        maxRetries: 4,
        withinDays: 7,
        createdAt: null,
      });
      expect(await policy(c, { insufficientFunds: 'day_of_month', dayOfMonth: 5, withinDays: 45 })).toMatchObject({
        version: 1,
        retryDays: [1, 3, 5, 7],
        insufficientFunds: 'day_of_month',
        dayOfMonth: 5,
        maxRetries: 4,
        withinDays: 45,
        createdAt: expect.stringMatching(/^2028-01-01T/),
      });
      expect(await policy(c, { retryDays: [2, 4] })).toMatchObject({ version: 2, withinDays: 4, maxRetries: 2 });
      expect((await c.m.get('/v1/subscription/recovery-policy')).body).toMatchObject({ version: 2, retryDays: [2, 4] });
    });

    it.each([
      ['retry days that do not increase', { retryDays: [3, 1] }, 'retryDays'],
      ['a retry day of 0', { retryDays: [0, 2] }, 'retryDays'],
      ['too many retry days', { retryDays: [1, 2, 3, 4, 5, 6, 7, 8, 9] }, 'retryDays'],
      ['dayOfMonth without day_of_month', { dayOfMonth: 3 }, 'dayOfMonth'],
      ['day_of_month without dayOfMonth', { insufficientFunds: 'day_of_month', withinDays: 40 }, 'dayOfMonth'],
      ['a dayOfMonth of 31', { insufficientFunds: 'day_of_month', dayOfMonth: 31, withinDays: 40 }, 'dayOfMonth'],
      ['next month within 7 days', { insufficientFunds: 'next_month' }, 'withinDays'],
      ['retry days past withinDays', { retryDays: [1, 9], withinDays: 5 }, 'withinDays'],
      ['an unknown rule', { switchMethod: 'never' }, 'switchMethod'],
      ['maxRetries 0', { maxRetries: 0 }, 'maxRetries'],
    ])('400 VALIDATION_FAILED for %s, and nothing changes', async (_, body, param) => {
      const c = await TimeClient.start(stack);
      expectError(await put(c, body), 400, 'VALIDATION_FAILED', param);
      expect((await c.m.get('/v1/subscription/recovery-policy')).body.version).toBe(0);
    });
  });

  it('insufficient funds waits for the next calendar month; withinDays then ends the run', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    await policy(c, { insufficientFunds: 'next_month', withinDays: 40 });
    const s = await subscribed(c, CARDS.mitInsufficientFunds);
    await c.advance({ to: '2028-02-10T01:00:00Z' });
    const sub = await c.sub(s.id);
    expect(sub).toMatchObject({ status: 'past_due', dunningAttemptCount: 0 });
    expect(minute(sub.nextBillingDate)).toBe('2028-03-01T00:00');
    expect(sub.dunning).toEqual({
      policyVersion: 1,
      scheduledAt: expect.stringMatching(/^2028-02-10T00:00/),
      lastRefusal: expect.objectContaining({ reasonCode: '51' }),
      lastConnectionCode: 'sandbox',
      waitingFor: 'scheduled_retry',
      nextAttemptAt: sub.nextBillingDate,
    });
    // Not on the +1/+3/+5/+7 day schedule.
    await c.advance({ to: '2028-02-29T00:00:00Z' });
    expect(await c.renewalPayments(s.id)).toHaveLength(1);
    await c.advance({ to: '2028-03-01T01:00:00Z' });
    expect(await c.renewalPayments(s.id)).toHaveLength(2);
    // The next 1st (April) is past 40 days after the renewal: suspended.
    expect(await c.sub(s.id)).toMatchObject({ status: 'suspended', dunningAttemptCount: 1, dunning: null });
  });

  it('insufficient funds on a set day of the month', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    await policy(c, { insufficientFunds: 'day_of_month', dayOfMonth: 15, withinDays: 31 });
    const s = await subscribed(c, CARDS.mitInsufficientFunds);
    await c.advance({ to: '2028-02-10T01:00:00Z' });
    expect(minute((await c.sub(s.id)).nextBillingDate)).toBe('2028-02-15T00:00');
  });

  it('a switch_method decline is not retried until the payment method changes', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    await policy(c, { switchMethod: 'after_new_payment_method' });
    const s = await subscribed(c, CARDS.mitExpired);
    await c.advance({ to: '2028-02-10T01:00:00Z' });
    const sub = await c.sub(s.id);
    expect(sub).toMatchObject({ status: 'past_due', nextBillingDate: null });
    expect(sub.dunning).toMatchObject({
      waitingFor: 'payment_method',
      nextAttemptAt: null,
      lastRefusal: { reasonCode: '54', recoveryAction: 'switch_method' },
    });
    await c.advance({ to: '2028-02-25T00:00:00Z' });
    expect(await c.renewalPayments(s.id)).toHaveLength(1);
    const r = await c.op(s.id, 'payment-method', { card: cardData() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'active', dunning: null });
    expect((await c.invoices(s.id)).map((i) => i.status)).toEqual(['paid', 'paid']);
  });

  it('at most maxRetries retries', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    await policy(c, { maxRetries: 2 });
    const s = await subscribed(c, CARDS.mitInsufficientFunds);
    await c.advance({ to: '2028-02-13T01:00:00Z' });
    expect(await c.sub(s.id)).toMatchObject({ status: 'suspended', dunningAttemptCount: 2 });
    expect(await c.renewalPayments(s.id)).toHaveLength(3);
  });

  it('a run keeps the version it started with; runs that start later follow the change', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    await policy(c, { retryDays: [2, 4] });
    const first = await subscribed(c, CARDS.mitInsufficientFunds);
    await c.advance({ to: '2028-01-20T00:00:00Z' });
    const second = await subscribed(c, CARDS.mitInsufficientFunds);
    await c.advance({ to: '2028-02-10T01:00:00Z' });
    expect(minute((await c.sub(first.id)).nextBillingDate)).toBe('2028-02-12T00:00');

    expect(await policy(c, { retryDays: [1] })).toMatchObject({ version: 2 });
    let sub = await c.sub(first.id);
    expect(minute(sub.nextBillingDate)).toBe('2028-02-12T00:00');
    await c.advance({ to: '2028-02-12T01:00:00Z' });
    sub = await c.sub(first.id);
    expect(sub).toMatchObject({ status: 'past_due', dunningAttemptCount: 1, dunning: { policyVersion: 1 } });
    expect(minute(sub.nextBillingDate)).toBe('2028-02-14T00:00');

    await c.advance({ to: '2028-02-20T01:00:00Z' });
    const later = await c.sub(second.id);
    expect(later).toMatchObject({ status: 'past_due', dunning: { policyVersion: 2 } });
    expect(minute(later.nextBillingDate)).toBe('2028-02-21T00:00');
  });
});
