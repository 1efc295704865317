import { TestStack } from '../support/stack';
import {
  billingMerchant,
  billingStack,
  BillingClient,
  billingQuery,
  cardData,
  DAY_MS,
  expectError,
  footprint,
  nonceFor,
  paymentsDb,
} from './billing-fixtures';

const monthAfter = (iso: string): string => {
  const d = new Date(iso);
  return new Date(
    Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + 1,
      d.getUTCDate(),
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
      d.getUTCMilliseconds(),
    ),
  ).toISOString();
};

/** POST /v1/subscription: CIT and record modes, statuses at creation, declines that keep nothing, input rules. */
describe('subscription creation', () => {
  let stack: TestStack;
  let m: BillingClient;
  let monthly: Record<string, any>;
  let trial: Record<string, any>;

  beforeAll(async () => {
    [stack, m] = await billingStack();
    monthly = await m.plan({ amount: 1999 });
    trial = await m.plan({ amount: 500, trialPeriodDays: 14 });
  });
  afterAll(() => stack.stop());

  describe('CIT mode', () => {
    it('charges cycle 1 with a tokenizing CIT: active, firstInvoice paid, plan embedded', async () => {
      const r = await m.subscribe({ planId: monthly.id, customerName: 'Jane', metadata: { crm: '42' } });
      expect(r.status).toBe(201);
      const s = r.body;
      expect(s).toMatchObject({
        id: expect.any(String),
        merchantId: m.merchantId,
        planId: monthly.id,
        status: 'active',
        customerEmail: 'jane@example.com',
        customerName: 'Jane',
        cardBrand: 'visa',
        cyclesCompleted: 1,
        dunningAttemptCount: 0,
        trialStart: null,
        startAt: null,
        pendingPlanId: null,
        scheduledPlanChange: null,
        metadata: { crm: '42' },
        plan: { id: monthly.id, amount: 1999 },
      });
      expect(s.activatedAt).toBe(s.currentPeriodStart);
      expect(s.currentPeriodEnd).toBe(monthAfter(s.currentPeriodStart));
      expect(s.nextBillingDate).toBe(s.currentPeriodEnd);
      expect(s.firstInvoice).toMatchObject({
        subscriptionId: s.id,
        status: 'paid',
        amount: 1999,
        currency: 'USD',
        exponent: 2,
        periodStart: s.currentPeriodStart,
        periodEnd: s.currentPeriodEnd,
        paymentAttemptCount: 1,
        lines: [],
      });
      expect(s.firstInvoice.attempts).toBeUndefined();
      expect(s.firstCycle).toBeUndefined();
      const [payment] = await paymentsDb(
        stack,
        `SELECT status, amount_value::int AS value, card_on_file, token FROM payments
         WHERE merchant_code = $1 AND order_code = $2`,
        [m.merchantCode, `sub_${s.id}_1`],
      );
      expect(payment).toMatchObject({
        status: 'captured',
        value: 1999,
        card_on_file: { type: 'recurring', initiator: 'cardholder' },
      });
      expect(payment.token.token).toMatch(/^vt_/);
      const invoice = await m.get(`/v1/subscription/invoice/${s.firstInvoice.id}`);
      expect(invoice.body.attempts).toEqual([
        {
          at: expect.any(String),
          paymentId: expect.any(String),
          status: 'captured',
          refusalCode: null,
          connectionCode: 'sandbox',
        },
      ]);
      const got = await m.get(`/v1/subscription/${s.id}?merchantCode=${m.merchantCode}`);
      const { firstInvoice: _i, ...view } = s;
      expect(got.body).toEqual(view);
    });

    it('a plan trial verifies the card (zero-value authorization) and starts trialing; nothing charged', async () => {
      const s = (await m.subscribe({ planId: trial.id })).body;
      expect(s).toMatchObject({ status: 'trialing', firstInvoice: null, cyclesCompleted: 0, activatedAt: null });
      expect(new Date(s.trialEnd).getTime() - new Date(s.trialStart).getTime()).toBe(14 * DAY_MS);
      expect(s.nextBillingDate).toBe(s.trialEnd);
      const rows = await paymentsDb(
        stack,
        `SELECT status, amount_value::int AS value, token FROM payments WHERE order_code = $1`,
        [`sub_${s.id}_verify`],
      );
      expect(rows).toEqual([
        { status: 'authorized', value: 0, token: expect.objectContaining({ token: expect.any(String) }) },
      ]);
    });

    it('a future startAt is pending, with nothing charged until then', async () => {
      const startAt = new Date(Date.now() + 3 * DAY_MS).toISOString();
      const s = (await m.subscribe({ planId: monthly.id, startAt })).body;
      expect(s).toMatchObject({
        status: 'pending',
        startAt,
        nextBillingDate: startAt,
        firstInvoice: null,
        currentPeriodStart: null,
      });
      const pendingTrial = (await m.subscribe({ planId: trial.id, startAt })).body;
      expect(pendingTrial).toMatchObject({ status: 'pending', trialStart: startAt });
      expectError(
        await m.subscribe({ planId: monthly.id, startAt: '2020-01-01T00:00:00Z' }),
        400,
        'VALIDATION_FAILED',
        'startAt',
      );
      expectError(await m.subscribe({ planId: monthly.id, startAt: 'tomorrow' }), 400, 'VALIDATION_FAILED', 'startAt');
    });

    it('an intro price bills cycle 1; a plan that prices meters itemizes the base fee as a line', async () => {
      const intro = await m.plan({ amount: 2000, introAmount: 150, introBillingCycles: 2 });
      expect((await m.subscription({ planId: intro.id })).firstInvoice).toMatchObject({ amount: 150, lines: [] });
      await m.post('/v1/subscription/meter', {
        code: 'calls',
        name: 'Calls',
        aggregation: 'sum',
        pricing: { scheme: 'per_unit', unitAmount: 1 },
      });
      const metered = await m.plan({ name: 'Metered', amount: 700, meterCodes: ['calls'] });
      const s = await m.subscription({ planId: metered.id });
      expect(s.firstInvoice).toMatchObject({ amount: 700, lines: [{ description: 'Metered', amount: 700 }] });
      expect(s.firstInvoice.lines[0].meterId).toBeUndefined();
    });

    it('enrols with an SDK nonce, as a subscription link does (the createSubscription body)', async () => {
      const nonce = await nonceFor(m);
      const r = await m.post('/v1/subscription', {
        planId: monthly.id,
        customerEmail: 'payer@example.com',
        customerName: 'P',
        card: { nonceData: { nonce } },
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ status: 'active', cardBrand: 'visa', firstInvoice: { status: 'paid' } });
    });
  });

  describe('record mode', () => {
    it('charges cycle 1 as a merchant-initiated transaction on the token', async () => {
      const { token } = await m.token();
      const r = await m.subscribe({ planId: monthly.id, card: { tokenData: { token } } });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        status: 'active',
        cardBrand: 'visa',
        firstInvoice: { status: 'paid', amount: 1999 },
      });
      expect(r.body.firstCycle).toEqual({
        result: 'charged',
        paymentId: expect.any(String),
        invoiceId: r.body.firstInvoice.id,
      });
      const [payment] = await paymentsDb(stack, 'SELECT status, card_on_file FROM payments WHERE id = $1', [
        r.body.firstCycle.paymentId,
      ]);
      expect(payment).toEqual({ status: 'captured', card_on_file: { type: 'recurring', initiator: 'merchant' } });
    });

    it('firstPaymentId marks cycle 1 paid by the customer’s own CIT, with no charge', async () => {
      const { token, paymentId } = await m.token();
      const before = await footprint(stack, m.merchantCode);
      const r = await m.subscribe({ planId: monthly.id, card: { tokenData: { token } }, firstPaymentId: paymentId });
      expect(r.status).toBe(201);
      expect(r.body.firstCycle).toEqual({ result: 'linked', paymentId, invoiceId: r.body.firstInvoice.id });
      const invoice = (await m.get(`/v1/subscription/invoice/${r.body.firstInvoice.id}`)).body;
      expect(invoice).toMatchObject({
        status: 'paid',
        paymentAttemptCount: 1,
        attempts: [{ paymentId, status: 'captured' }],
      });
      expect((await footprint(stack, m.merchantCode)).approved).toBe(before.approved);
    });

    it('with a trial nothing is charged (deferred)', async () => {
      const { token } = await m.token();
      const r = await m.subscribe({ planId: trial.id, card: { tokenData: { token } } });
      expect(r.body).toMatchObject({
        status: 'trialing',
        firstInvoice: null,
        firstCycle: { result: 'deferred', paymentId: null, invoiceId: null },
      });
    });

    it('refuses a bad token or firstPaymentId', async () => {
      const { token, paymentId } = await m.token();
      const other = await m.token();
      const eur = await m.token('4111111111111111', 'EUR');
      expectError(
        await m.subscribe({ planId: monthly.id, card: { tokenData: { token: 'vt_nope' } } }),
        404,
        'NOT_FOUND',
        'card.tokenData.token',
      );
      const rec = (o: Record<string, unknown>) =>
        m.subscribe({ planId: monthly.id, card: { tokenData: { token } }, ...o });
      expectError(await rec({ firstPaymentId: other.paymentId }), 400, 'VALIDATION_FAILED', 'firstPaymentId');
      expectError(
        await rec({ firstPaymentId: '0190f0e0-0000-7000-8000-000000000000' }),
        404,
        'NOT_FOUND',
        'firstPaymentId',
      );
      expectError(
        await m.subscribe({
          planId: monthly.id,
          card: { tokenData: { token: eur.token } },
          firstPaymentId: eur.paymentId,
        }),
        422,
        'CURRENCY_MISMATCH',
        'firstPaymentId',
      );
      expectError(
        await m.subscribe({ planId: trial.id, card: { tokenData: { token } }, firstPaymentId: paymentId }),
        400,
        'VALIDATION_FAILED',
        'firstPaymentId',
      );
      expectError(
        await m.subscribe({ planId: monthly.id, firstPaymentId: paymentId }),
        400,
        'VALIDATION_FAILED',
        'firstPaymentId',
      );
      const stranger = await billingMerchant(stack);
      const strangerPlan = await stranger.plan();
      expectError(
        await stranger.subscribe({ planId: strangerPlan.id, card: { tokenData: { token } } }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('plan and input rules', () => {
    it('archived or inactive plans take no subscribers; availableCountries is enforced', async () => {
      const archived = await m.plan();
      await m.delete(`/v1/subscription/plan/${archived.id}`);
      expectError(await m.subscribe({ planId: archived.id }), 409, 'INVALID_STATE');
      const inactive = await m.plan({ isActive: false });
      expectError(await m.subscribe({ planId: inactive.id }), 409, 'INVALID_STATE');
      const local = await m.plan({ availableCountries: ['BR'] });
      expectError(
        await m.subscribe({ planId: local.id }),
        400,
        'VALIDATION_FAILED',
        'card.cardData.cardAddress.country',
      );
      const us = cardData(undefined, { cardAddress: { country: 'US' } });
      expectError(
        await m.subscribe({ planId: local.id, card: us }),
        400,
        'VALIDATION_FAILED',
        'card.cardData.cardAddress.country',
      );
      const br = cardData(undefined, { cardAddress: { country: 'BR' } });
      expect((await m.subscribe({ planId: local.id, card: br })).status).toBe(201);
      expectError(await m.subscribe({ planId: 987654 }), 404, 'NOT_FOUND', 'planId');
    });

    it('malformed, wrong-typed, out-of-range and oversized input is 400', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ planId: 'one' }, 'planId'],
        [{ planId: 0 }, 'planId'],
        [{ planId: monthly.id, customerEmail: 'not-an-email' }, 'customerEmail'],
        [{ planId: monthly.id, customerEmail: undefined }, 'customerEmail'],
        [{ planId: monthly.id, card: { ...cardData(), tokenData: { token: 'vt_x' } } }, 'card'],
        [{ planId: monthly.id, card: {} }, 'card'],
        [
          { planId: monthly.id, card: { ...cardData(), cardOnFile: { type: 'recurring', initiator: 'merchant' } } },
          'card.cardOnFile',
        ],
        [{ planId: monthly.id, card: { ...cardData(), instalments: 3 } }, 'card.instalments'],
        [{ planId: monthly.id, card: cardData('4111111111111112') }, 'card.cardData.cardNumber'],
        [
          { planId: monthly.id, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
          'metadata',
        ],
        [{ planId: monthly.id, metadata: { k: 1 } }, 'metadata'],
        [{ planId: monthly.id, customerName: 'x'.repeat(256) }, 'customerName'],
        [{ planId: monthly.id, propagateLifecycle: true }, 'propagateLifecycle'],
        [{ planId: monthly.id, propagateLifecycle: 'yes', parentSubscriptionId: 'x' }, 'propagateLifecycle'],
      ];
      for (const [body, param] of cases) {
        const r = await m.subscribe(body);
        expect({ param, status: r.status, code: r.body.error?.code }).toEqual({
          param,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
        expect(r.body.error.param).toBe(param);
      }
      expectError(
        await m.subscribe({ planId: monthly.id, parentSubscriptionId: 'nope' }),
        404,
        'NOT_FOUND',
        'parentSubscriptionId',
      );
      const raw = await stack.http('POST', '/v1/subscription', { key: m.key, rawBody: '{"planId": 1,' });
      expectError(raw, 400, 'VALIDATION_FAILED');
      expect(
        (
          await billingQuery(stack, 'SELECT count(*)::int AS n FROM subscriptions WHERE customer_name = $1', [
            'x'.repeat(256),
          ])
        )[0].n,
      ).toBe(0);
    });

    it('an empty customerName is the same as none', async () => {
      const s = (await m.subscribe({ planId: monthly.id, customerName: '' })).body;
      expect(s.customerName).toBeNull();
    });
  });

  it('GET one (plan embedded) and the list (filters, paging); other merchants and environments get 404', async () => {
    const c = await billingMerchant(stack);
    const plan = await c.plan();
    const a = await c.subscription({ planId: plan.id, customerEmail: 'a@example.com' });
    const b = await c.subscription({ planId: plan.id, customerEmail: 'b@example.com' });
    const t = await c.subscription({
      planId: (await c.plan({ trialPeriodDays: 3 })).id,
      customerEmail: 'b@example.com',
    });
    const ids = async (q: string) => (await c.get(`/v1/subscription${q}`)).body.map((s: { id: string }) => s.id);
    expect(await ids('')).toEqual([t.id, b.id, a.id]);
    expect(await ids(`?planId=${plan.id}`)).toEqual([b.id, a.id]);
    expect(await ids('?status=trialing')).toEqual([t.id]);
    expect(await ids('?customerEmail=B@example.com')).toEqual([t.id, b.id]);
    expect(await ids(`?limit=1&startingAfter=${t.id}`)).toEqual([b.id]);
    expect((await c.get('/v1/subscription')).body[0].plan).toBeUndefined();
    expectError(await c.get('/v1/subscription?status=alive'), 400, 'VALIDATION_FAILED', 'status');
    expectError(await c.get('/v1/subscription?limit=101'), 400, 'VALIDATION_FAILED', 'limit');
    // A single-merchant key names its merchant; a key of several must say which (the query string on GET).
    expect((await c.get(`/v1/subscription/${a.id}`)).body).toMatchObject({ id: a.id, plan: { id: plan.id } });
    const multi = (await stack.key([c.merchantCode, m.merchantCode])).key;
    const unnamed = await stack.http('GET', `/v1/subscription/${a.id}`, { key: multi });
    expectError(unnamed, 400, 'MERCHANT_CODE_REQUIRED', 'merchantCode');
    const named = await stack.http('GET', `/v1/subscription/${a.id}?merchantCode=${c.merchantCode}`, { key: multi });
    expect(named.body).toMatchObject({ id: a.id });
    const got = await c.get(`/v1/subscription/${a.id}?merchantCode=${c.merchantCode}`);
    expect(got.body.plan).toMatchObject({ id: plan.id });
    expectError(await c.get(`/v1/subscription/nope?merchantCode=${c.merchantCode}`), 404, 'NOT_FOUND');
    expectError(await m.get(`/v1/subscription/${a.id}?merchantCode=${m.merchantCode}`), 404, 'NOT_FOUND');
    const production = await billingMerchant(stack, 'production', c.merchantCode);
    expectError(await production.get(`/v1/subscription/${a.id}?merchantCode=${c.merchantCode}`), 404, 'NOT_FOUND');
    expect((await production.get('/v1/subscription')).body).toEqual([]);
    expectError(await production.subscribe({ planId: plan.id }), 404, 'NOT_FOUND', 'planId');
    expectError(await m.get(`/v1/subscription/invoice/${a.firstInvoice.id}`), 404, 'NOT_FOUND');
    expectError(await m.get(`/v1/subscription/${a.id}/invoice`), 404, 'NOT_FOUND');
  });
});
