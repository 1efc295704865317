import { ManualClock } from '@app/clock';
import { TestStack } from '../support/stack';
import {
  billingStack,
  BillingClient,
  billingQuery,
  cardData,
  CARDS,
  expectError,
  footprint,
  paymentsDb,
} from './billing-fixtures';

const MASTERCARD = '5500005555555559';

/** change-plan (proration, upgrade MIT, downgrade, scheduling) and payment-method, on a clock the test holds. */
describe('subscription changes: change-plan and payment-method', () => {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
  let stack: TestStack;
  let m: BillingClient;

  beforeAll(async () => ([stack, m] = await billingStack({ clock })));
  afterAll(() => stack.stop());

  const at = (iso: string) => clock.set(new Date(iso));
  const change = (id: string, body: Record<string, unknown>, key?: string) =>
    m.post(`/v1/subscription/${id}/change-plan`, { merchantCode: m.merchantCode, ...body }, key);
  const invoicesOf = async (id: string) => (await m.get(`/v1/subscription/${id}/invoice`)).body;
  const paymentsOf = (id: string) =>
    paymentsDb(
      stack,
      `SELECT amount_value::int AS value, status, card_on_file FROM payments WHERE order_code LIKE $1 ORDER BY id`,
      [`sub_${id}_%`],
    );

  describe('change-plan now', () => {
    it('month → year upgrade: the prorated delta is charged as an MIT with its own invoice', async () => {
      at('2026-01-01T00:00:00.000Z');
      const monthly = await m.plan({ interval: 'month', amount: 1000 });
      const yearly = await m.plan({ interval: 'year', amount: 12000 });
      const s = await m.subscription({ planId: monthly.id });
      expect(s).toMatchObject({
        currentPeriodStart: '2026-01-01T00:00:00.000Z',
        currentPeriodEnd: '2026-02-01T00:00:00.000Z',
      });
      at('2026-01-11T00:00:00.000Z');
      const r = await change(s.id, { planId: yearly.id, applyAt: 'now' });
      expect(r.status).toBe(200);
      // remaining 21 days of 31; a year from Jan 1 is 365 days: 12000·21/365 − 1000·21/31 = 12.99… → 13
      expect(r.body).toMatchObject({
        planId: yearly.id,
        status: 'active',
        plan: { id: yearly.id },
        currentPeriodStart: '2026-01-01T00:00:00.000Z',
        currentPeriodEnd: '2026-02-01T00:00:00.000Z',
        nextBillingDate: '2026-02-01T00:00:00.000Z',
        pendingPlanId: null,
      });
      const [upgrade, first] = await invoicesOf(s.id);
      expect(first.id).toBe(s.firstInvoice.id);
      expect(upgrade).toMatchObject({
        status: 'paid',
        amount: 13,
        periodStart: '2026-01-11T00:00:00.000Z',
        periodEnd: '2026-02-01T00:00:00.000Z',
      });
      expect((await paymentsOf(s.id)).map((p) => [p.value, p.status, p.card_on_file.initiator])).toEqual([
        [1000, 'captured', 'cardholder'],
        [13, 'captured', 'merchant'],
      ]);
    });

    it('week → month upgrade: delta against a calendar month starting at the period start', async () => {
      at('2026-02-02T00:00:00.000Z');
      const weekly = await m.plan({ interval: 'week', amount: 1000 });
      const monthly = await m.plan({ interval: 'month', amount: 5000 });
      const s = await m.subscription({ planId: weekly.id });
      expect(s.currentPeriodEnd).toBe('2026-02-09T00:00:00.000Z');
      at('2026-02-05T00:00:00.000Z');
      const r = await change(s.id, { planId: monthly.id, applyAt: 'now' });
      expect(r.status).toBe(200);
      // remaining 4 days of 7; February 2026 from the 2nd is 28 days: 5000·4/28 − 1000·4/7 = 142.857… → 143
      expect((await invoicesOf(s.id))[0]).toMatchObject({ amount: 143, periodEnd: '2026-02-09T00:00:00.000Z' });
    });

    it('a downgrade switches at once without a refund or an invoice; an upgrade decline changes nothing', async () => {
      at('2026-03-01T00:00:00.000Z');
      const cheap = await m.plan({ amount: 500 });
      const dear = await m.plan({ amount: 5000 });
      const s = await m.subscription({ planId: dear.id });
      at('2026-03-10T00:00:00.000Z');
      const down = await change(s.id, { planId: cheap.id, applyAt: 'now' });
      expect(down.body).toMatchObject({ planId: cheap.id, status: 'active' });
      expect(await invoicesOf(s.id)).toHaveLength(1);
      expect(await paymentsOf(s.id)).toHaveLength(1);

      const risky = await m.subscription({ planId: cheap.id, card: cardData(CARDS.mitInsufficientFunds) });
      const before = await footprint(stack, m.merchantCode);
      const declined = await change(risky.id, { planId: dear.id, applyAt: 'now' });
      expectError(declined, 402, 'PAYMENT_DECLINED');
      expect(declined.body.error).toMatchObject({ paymentId: expect.any(String), refusalCode: { reasonCode: '51' } });
      expect(await footprint(stack, m.merchantCode)).toEqual(before);
      const after = (await m.get(`/v1/subscription/${risky.id}?merchantCode=${m.merchantCode}`)).body;
      expect(after).toMatchObject({ planId: cheap.id, updatedAt: risky.updatedAt });
      // The same key a day later (another delta): declined again, not a key reuse.
      const key = 'retry-upgrade';
      expectError(await change(risky.id, { planId: dear.id, applyAt: 'now' }, key), 402, 'PAYMENT_DECLINED');
      clock.advance(86_400_000);
      expectError(await change(risky.id, { planId: dear.id, applyAt: 'now' }, key), 402, 'PAYMENT_DECLINED');
    });

    it('trialing and paused subscriptions switch without a charge', async () => {
      at('2026-04-01T00:00:00.000Z');
      const a = await m.plan({ amount: 1000, trialPeriodDays: 10 });
      const b = await m.plan({ amount: 3000 });
      const trialing = await m.subscription({ planId: a.id });
      expect((await change(trialing.id, { planId: b.id, applyAt: 'now' })).body).toMatchObject({
        status: 'trialing',
        planId: b.id,
      });
      const paused = await m.subscription({ planId: b.id });
      await m.post(`/v1/subscription/${paused.id}/pause`, {});
      expect((await change(paused.id, { planId: a.id, applyAt: 'now' })).body).toMatchObject({
        status: 'paused',
        planId: a.id,
      });
      expect(await paymentsOf(paused.id)).toHaveLength(1);
    });
  });

  it('next_billing (the default) records pendingPlanId and scheduledPlanChange, status and plan unchanged', async () => {
    at('2026-05-01T00:00:00.000Z');
    const a = await m.plan({ amount: 1000 });
    const b = await m.plan({ amount: 2000 });
    const s = await m.subscription({ planId: a.id });
    const r = await change(s.id, { planId: b.id });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      planId: a.id,
      status: 'active',
      pendingPlanId: b.id,
      scheduledPlanChange: { planId: b.id, effectiveAt: '2026-06-01T00:00:00.000Z' },
    });
    expect(await invoicesOf(s.id)).toHaveLength(1);
    const got = (await m.get(`/v1/subscription/${s.id}?merchantCode=${m.merchantCode}`)).body;
    expect(got.pendingPlanId).toBe(b.id);
  });

  it('refusals: currency, state, unknown or inactive plan, same plan, bad input', async () => {
    at('2026-06-01T00:00:00.000Z');
    const usd = await m.plan();
    const eur = await m.plan({ currency: 'EUR' });
    const other = await m.plan({ amount: 2000 });
    const s = await m.subscription({ planId: usd.id });
    expectError(await change(s.id, { planId: eur.id, applyAt: 'now' }), 422, 'CURRENCY_MISMATCH', 'planId');
    expectError(await change(s.id, { planId: 999999 }), 404, 'NOT_FOUND', 'planId');
    expectError(await change(s.id, { planId: usd.id }), 409, 'INVALID_STATE');
    const archived = await m.plan({ amount: 3000 });
    await m.delete(`/v1/subscription/plan/${archived.id}`);
    expectError(await change(s.id, { planId: archived.id }), 409, 'INVALID_STATE');
    expectError(await change(s.id, { planId: other.id, applyAt: 'later' }), 400, 'VALIDATION_FAILED', 'applyAt');
    expectError(await change(s.id, { planId: 'x' }), 400, 'VALIDATION_FAILED', 'planId');
    // Without merchantCode the key's one merchant is meant: the request reaches the plan rules.
    expectError(await m.post(`/v1/subscription/${s.id}/change-plan`, { planId: usd.id }), 409, 'INVALID_STATE');
    expectError(await change('nope', { planId: other.id }), 404, 'NOT_FOUND');
    for (const status of ['suspended', 'completed', 'cancelled']) {
      const t = await m.subscription({ planId: usd.id });
      await billingQuery(stack, 'UPDATE subscriptions SET status = $2 WHERE id = $1', [t.id, status]);
      expectError(await change(t.id, { planId: other.id, applyAt: 'now' }), 409, 'INVALID_STATE');
      expectError(await change(t.id, { planId: other.id }), 409, 'INVALID_STATE');
    }
  });

  it('change-plan and payment-method from every state', async () => {
    at('2026-10-01T00:00:00.000Z');
    const a = await m.plan({ amount: 1000 });
    const b = await m.plan({ amount: 2000 });
    const ALL = ['pending', 'trialing', 'active', 'past_due', 'suspended', 'paused', 'cancelled', 'completed'];
    const inState = async (status: string): Promise<string> => {
      const body = status === 'pending' ? { planId: a.id, startAt: '2026-12-01T00:00:00.000Z' } : { planId: a.id };
      const s = await m.subscription(body);
      if (status !== 'active' && status !== 'pending') {
        await billingQuery(stack, 'UPDATE subscriptions SET status = $2 WHERE id = $1', [s.id, status]);
      }
      clock.advance(1000);
      return s.id;
    };
    const outcome = (r: { status: number; body: any }) => (r.status === 200 ? r.body.status : r.body.error.code);
    const changed: Record<string, string> = {};
    const replaced: Record<string, string> = {};
    for (const status of ALL) {
      changed[status] = outcome(await change(await inState(status), { planId: b.id }));
      replaced[status] = outcome(
        await m.post(`/v1/subscription/${await inState(status)}/payment-method`, {
          merchantCode: m.merchantCode,
          card: cardData(),
        }),
      );
    }
    expect(changed).toEqual({
      pending: 'pending',
      trialing: 'trialing',
      active: 'active',
      past_due: 'past_due',
      suspended: 'INVALID_STATE',
      paused: 'paused',
      cancelled: 'INVALID_STATE',
      completed: 'INVALID_STATE',
    });
    expect(replaced).toEqual({
      pending: 'pending',
      trialing: 'trialing',
      active: 'active',
      past_due: 'active',
      suspended: 'active',
      paused: 'paused',
      cancelled: 'INVALID_STATE',
      completed: 'INVALID_STATE',
    });
  });

  describe('payment-method', () => {
    const replace = (id: string, card: unknown, key?: string) =>
      m.post(`/v1/subscription/${id}/payment-method`, { merchantCode: m.merchantCode, card }, key);

    it('active: verifies and stores the new card, renewals charge it', async () => {
      at('2026-07-01T00:00:00.000Z');
      const plan = await m.plan();
      const s = await m.subscription({ planId: plan.id });
      const r = await replace(s.id, cardData(MASTERCARD));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'active', cardBrand: 'mastercard', cyclesCompleted: 1 });
      const payments = await paymentsOf(s.id);
      expect(payments.map((p) => [p.value, p.status])).toEqual([
        [1000, 'captured'],
        [0, 'authorized'],
      ]);
      const [row] = await billingQuery(stack, 'SELECT card_token FROM subscriptions WHERE id = $1', [s.id]);
      const [stored] = await paymentsDb(stack, 'SELECT brand FROM stored_cards WHERE token = $1', [row.card_token]);
      expect(stored.brand).toBe('mastercard');
    });

    it('a decline is 402 and changes nothing; tokenData and terminal states are refused', async () => {
      const plan = await m.plan();
      const s = await m.subscription({ planId: plan.id });
      const before = await footprint(stack, m.merchantCode);
      const r = await replace(s.id, cardData(CARDS.declined));
      expectError(r, 402, 'PAYMENT_DECLINED');
      expect(await footprint(stack, m.merchantCode)).toEqual(before);
      expect((await m.get(`/v1/subscription/${s.id}?merchantCode=${m.merchantCode}`)).body.cardBrand).toBe('visa');
      const { token } = await m.token();
      expectError(await replace(s.id, { tokenData: { token } }), 400, 'VALIDATION_FAILED', 'card.tokenData');
      await m.post(`/v1/subscription/${s.id}/cancel`, { merchantCode: m.merchantCode });
      expectError(await replace(s.id, cardData()), 409, 'INVALID_STATE');
      // Without merchantCode the key's one merchant is meant: the request reaches the state rules.
      expectError(await m.post(`/v1/subscription/${s.id}/payment-method`, { card: cardData() }), 409, 'INVALID_STATE');
    });

    it('past_due: the new card pays the open invoice at once; suspended: a new period starting now', async () => {
      at('2026-08-01T00:00:00.000Z');
      const plan = await m.plan({ amount: 2500 });
      const due = await m.subscription({ planId: plan.id });
      await billingQuery(
        stack,
        `UPDATE subscriptions SET status = 'past_due', dunning_attempt_count = 2 WHERE id = $1`,
        [due.id],
      );
      const [open] = await billingQuery(
        stack,
        `INSERT INTO invoices (id, subscription_id, merchant_code, environment, status, amount, currency, exponent,
           period_start, period_end, payment_attempt_count, created_at, updated_at)
         VALUES ('01900000-0000-7000-8000-0000000000aa', $1, $2, 'sandbox', 'open', 2500, 'USD', 2,
           '2026-09-01T00:00:00Z', '2026-10-01T00:00:00Z', 1, now(), now()) RETURNING id`,
        [due.id, m.merchantCode],
      );
      at('2026-09-03T00:00:00.000Z');
      const r = await replace(due.id, cardData(MASTERCARD));
      expect(r.body).toMatchObject({
        status: 'active',
        dunningAttemptCount: 0,
        cardBrand: 'mastercard',
        cyclesCompleted: 2,
      });
      const paid = (await m.get(`/v1/subscription/invoice/${open.id}`)).body;
      expect(paid).toMatchObject({ status: 'paid', paymentAttemptCount: 2, attempts: [{ status: 'captured' }] });

      const suspended = await m.subscription({ planId: plan.id });
      await billingQuery(stack, `UPDATE subscriptions SET status = 'suspended' WHERE id = $1`, [suspended.id]);
      at('2026-09-20T00:00:00.000Z');
      const back = await replace(suspended.id, cardData());
      expect(back.body).toMatchObject({
        status: 'active',
        currentPeriodStart: '2026-09-20T00:00:00.000Z',
        currentPeriodEnd: '2026-10-20T00:00:00.000Z',
        nextBillingDate: '2026-10-20T00:00:00.000Z',
      });
      expect((await invoicesOf(suspended.id))[0]).toMatchObject({
        status: 'paid',
        amount: 2500,
        periodStart: '2026-09-20T00:00:00.000Z',
      });
    });
  });
});
