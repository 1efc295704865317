import { BACKFILL_DUNNING_START } from '../../apps/billing/src/migrations/1769000800001-invoice-dunning-start';
import { TestStack } from '../support/stack';
import { billingQuery, cardData, CARDS } from './billing-fixtures';
import { TimeClient, timeStack } from './renewal-fixtures';

jest.setTimeout(180_000);

const FEB = 'from=2028-02-01&to=2028-02-29';

/**
 * What the merchant sees of dunning (GET /v1/subscription/recovery) and of its payments (GET /v1/payment/stats):
 * subscriptions driven through dunning by the sandbox clock and the MIT test cards, every figure exact.
 */
describe('recovered revenue and payment figures, per merchant and environment', () => {
  let stack: TestStack;
  let c: TimeClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    stack = await timeStack();
    c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const basic = await c.m.plan({ name: 'Basic', amount: 1700, currency: 'EUR' });
    const pro = await c.m.plan({ name: 'Pro', amount: 2500, currency: 'EUR' });
    const enrol = async (name: string, planId: number, card: string) => {
      const s = await c.m.subscription({ planId, customerEmail: `${name}@example.com`, card: cardData(card) });
      ids[name] = s.id;
    };
    await enrol('funds', basic.id, CARDS.mitInsufficientFunds); // 51, recovered by a new card
    await enrol('fraud', pro.id, CARDS.mitFraud); // 59 terminal: suspended at once, lost
    await enrol('expired', basic.id, CARDS.mitExpired); // 54, still in dunning
    await enrol('fine', pro.id, '4111111111111111'); // paid on time: not dunning
    await c.advance({ to: '2028-02-10T12:00:00Z' });
    const r = await c.op(ids.funds, 'payment-method', { card: cardData() });
    expect(r.body).toMatchObject({ status: 'active' });
  });
  afterAll(() => stack?.stop());

  const eur = (value: number) => ({ currency: 'EUR', exponent: 2, value });
  const rate = (entered: number, recovered: number, lost: number, open: number) => ({
    entered,
    recovered,
    lost,
    open,
    rate: entered ? Math.round((recovered / entered) * 10_000) / 10_000 : 0,
  });

  it('recovered revenue, rates by start reason and connection, the invoices in dunning and their next step', async () => {
    const r = await c.m.get(`/v1/subscription/recovery?${FEB}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      from: '2028-02-01',
      to: '2028-02-29',
      recoveredRevenue: [eur(1700)],
      recoveredCount: 1,
      overall: rate(3, 1, 1, 1),
      byReason: [
        { reasonCode: '51', ...rate(1, 1, 0, 0) },
        { reasonCode: '54', ...rate(1, 0, 0, 1) },
        { reasonCode: '59', ...rate(1, 0, 1, 0) },
      ],
      byConnection: [{ connectionCode: 'sandbox', ...rate(3, 1, 1, 1) }],
    });
    // Every day of the range, the recovery on the day the new card paid.
    expect(r.body.recoveredByDay).toHaveLength(29);
    expect(r.body.recoveredByDay.filter((d: { count: number }) => d.count)).toEqual([
      { date: '2028-02-10', count: 1, amounts: [eur(1700)] },
    ]);
    expect(r.body.recoveredByDay[0]).toEqual({ date: '2028-02-01', count: 0, amounts: [] });
    const invoices = await c.invoices(ids.expired);
    expect(r.body.inDunning).toEqual([
      {
        invoiceId: invoices[invoices.length - 1].id,
        subscriptionId: ids.expired,
        customerEmail: 'expired@example.com',
        amountDue: eur(1700),
        dunningStartedAt: expect.stringMatching(/^2028-02-10T00:00/),
        startReason: '54',
        lastRefusal: expect.objectContaining({ reasonCode: '54', reason: 'Expired card' }),
        paymentAttemptCount: 1,
        waitingFor: 'scheduled_retry',
        nextAttemptAt: expect.stringMatching(/^2028-02-11T00:00/),
      },
    ]);
  });

  it('payment volume, approval rate and declines by reason, by day', async () => {
    const r = await c.m.get('/v1/payment/stats?from=2028-01-01&to=2028-02-29');
    expect(r.status).toBe(200);
    // January: four enrolments approved (17 + 25 + 17 + 25 EUR). February 10: four renewals (one approved,
    // 25 EUR; 51, 59 and 54 declined) and the new card's charge of the 51 one (17 EUR).
    expect(r.body.totals).toEqual({
      attempted: 9,
      approved: 6,
      declined: 3,
      failed: 0,
      approvalRate: 0.6667,
      volume: [eur(12_600)],
    });
    expect(r.body.byDay).toHaveLength(60);
    expect(r.body.byDay.filter((d: { attempted: number }) => d.attempted)).toEqual([
      { date: '2028-01-10', attempted: 4, approved: 4, declined: 0, failed: 0, approvalRate: 1, volume: [eur(8400)] },
      { date: '2028-02-10', attempted: 5, approved: 2, declined: 3, failed: 0, approvalRate: 0.4, volume: [eur(4200)] },
    ]);
    expect(r.body.declinesByReason).toEqual([
      { reasonCode: '51', reason: 'Insufficient funds', count: 1 },
      { reasonCode: '54', reason: 'Expired card', count: 1 },
      { reasonCode: '59', reason: 'Suspected fraud', count: 1 },
    ]);
  });

  it('by default the last 30 days of the sandbox clock; a range that misses the runs counts none', async () => {
    const byDefault = await c.m.get('/v1/subscription/recovery');
    expect(byDefault.body).toMatchObject({ from: '2028-01-12', to: '2028-02-10', recoveredCount: 1 });
    const march = await c.m.get('/v1/subscription/recovery?from=2028-03-01&to=2028-03-31');
    expect(march.body).toMatchObject({ recoveredRevenue: [], recoveredCount: 0, overall: rate(0, 0, 0, 0) });
    // The invoices in dunning are those of now, whatever the range.
    expect(march.body.inDunning.map((i: { subscriptionId: string }) => i.subscriptionId)).toEqual([ids.expired]);
    const stats = await c.m.get('/v1/payment/stats');
    expect(stats.body).toMatchObject({ from: '2028-01-12', to: '2028-02-10' });
    expect(stats.body.totals.attempted).toBe(5);
  });

  it("another merchant's figures are its own", async () => {
    const other = await TimeClient.start(stack, '2028-02-15T00:00:00Z');
    const r = await other.m.get(`/v1/subscription/recovery?${FEB}&merchantCode=${other.m.merchantCode}`);
    expect(r.body).toMatchObject({ recoveredCount: 0, overall: rate(0, 0, 0, 0), byReason: [], inDunning: [] });
    const stats = await other.m.get(`/v1/payment/stats?${FEB}`);
    expect(stats.body.totals).toMatchObject({ attempted: 0, volume: [] });
    expect(stats.body.declinesByReason).toEqual([]);
  });

  it('a retry declined again moves the next step; the figures stay', async () => {
    await c.advance({ to: '2028-02-11T12:00:00Z' });
    const r = await c.m.get(`/v1/subscription/recovery?${FEB}`);
    expect(r.body.overall).toEqual(rate(3, 1, 1, 1));
    expect(r.body.inDunning).toEqual([
      expect.objectContaining({
        subscriptionId: ids.expired,
        paymentAttemptCount: 2,
        nextAttemptAt: expect.stringMatching(/^2028-02-13T00:00/),
      }),
    ]);
  });

  it('by connection: the one that declined the renewal, a run lost on one and one recovered on the other', async () => {
    const d = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const plan = await d.m.plan({ amount: 900, currency: 'EUR' });
    const lost = await d.m.subscription({ planId: plan.id, card: cardData(CARDS.mitInsufficientFunds) });
    await d.advance({ to: '2028-01-20T00:00:00Z' });
    const saved = await d.m.subscription({ planId: plan.id, card: cardData(CARDS.mitExpired) });
    await d.advance({ to: '2028-02-10T12:00:00Z' }); // the first renewal declined on `sandbox`
    // A connection tried before the default one from now on: the second renewal is declined there.
    const added = await stack.admin('POST', `/merchants/${d.m.merchantCode}/connections`, {
      ...{ connectionCode: 'second', connectionName: 'Second', acquirer: 'sandbox', environment: 'sandbox' },
      ...{ currencies: [], methods: ['card'], priority: 10 },
    });
    expect(added.status).toBe(201);
    await d.advance({ to: '2028-02-20T12:00:00Z' });
    expect((await d.sub(lost.id)).status).toBe('suspended');
    expect((await d.op(saved.id, 'payment-method', { card: cardData() })).body).toMatchObject({ status: 'active' });
    const r = await d.m.get(`/v1/subscription/recovery?${FEB}`);
    expect(r.body).toMatchObject({
      recoveredRevenue: [eur(900)],
      overall: rate(2, 1, 1, 0),
      byReason: [
        { reasonCode: '51', ...rate(1, 0, 1, 0) },
        { reasonCode: '54', ...rate(1, 1, 0, 0) },
      ],
      byConnection: [
        { connectionCode: 'sandbox', ...rate(1, 0, 1, 0) },
        { connectionCode: 'second', ...rate(1, 1, 0, 0) },
      ],
      inDunning: [],
    });
  });

  it('invoices recorded before the dunning columns are filled from their attempts by the migration', async () => {
    const before = (await c.m.get(`/v1/subscription/recovery?${FEB}`)).body;
    const cleared = `UPDATE invoices SET dunning_started_at = NULL, dunning_reason = NULL, dunning_connection = NULL
                      WHERE merchant_code = $1`;
    await billingQuery(stack, cleared, [c.m.merchantCode]);
    expect((await c.m.get(`/v1/subscription/recovery?${FEB}`)).body.overall).toEqual(rate(0, 0, 0, 0));
    await billingQuery(stack, BACKFILL_DUNNING_START);
    expect((await c.m.get(`/v1/subscription/recovery?${FEB}`)).body).toEqual(before);
  });

  it.each([
    ['from=2028-02-30&to=2028-03-01', 'from'],
    ['from=2028-03-01&to=2028-02-01', 'from'],
    ['from=2027-01-01&to=2028-02-01', 'from'],
    ['from=01-02-2028', 'from'],
    ['to=tomorrow', 'to'],
  ])('400 VALIDATION_FAILED for %s', async (query, param) => {
    for (const path of ['/v1/subscription/recovery', '/v1/payment/stats']) {
      const r = await c.m.get(`${path}?${query}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'VALIDATION_FAILED', param });
    }
  });
});
