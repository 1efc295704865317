import { BillingSubjects } from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { TestStack } from '../support/stack';
import { billingMerchant, billingStack, BillingClient, cardData, expectError } from './billing-fixtures';

/** Plans and meters: defaults, immutables, archive, country filter, subscriber counts, scoping. */
describe('billing plans and meters', () => {
  let stack: TestStack;
  let m: BillingClient;

  beforeAll(async () => ([stack, m] = await billingStack()));
  afterAll(() => stack.stop());

  it('creates a plan with the defaults and the merchant’s integer merchantId', async () => {
    const r = await m.post('/v1/subscription/plan', { name: 'Pro', interval: 'month', amount: 1999, currency: 'JPY' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      id: expect.any(Number),
      merchantId: m.merchantId,
      name: 'Pro',
      description: null,
      interval: 'month',
      intervalCount: 1,
      amount: 1999,
      currency: 'JPY',
      exponent: 0,
      trialPeriodDays: 0,
      introAmount: null,
      introBillingCycles: 0,
      maxBillingCycles: 0,
      availableCountries: [],
      isActive: true,
      meterCodes: [],
      archivedAt: null,
    });
    expect(Number.isInteger(r.body.id)).toBe(true);
    const got = await m.get(`/v1/subscription/plan/${r.body.id}`);
    expect(got.body).toEqual(r.body);
  });

  it('refuses bad plans with the 400 envelope naming the field', async () => {
    const base = { name: 'P', interval: 'month', amount: 100, currency: 'USD' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, interval: 'fortnight' }, 'interval'],
      [{ ...base, amount: 1.5 }, 'amount'],
      [{ ...base, amount: '100' }, 'amount'],
      [{ ...base, amount: 0 }, 'amount'],
      [{ ...base, amount: 2 ** 60 }, 'amount'],
      [{ ...base, currency: 'XYZ' }, 'currency'],
      [{ ...base, intervalCount: 0 }, 'intervalCount'],
      [{ ...base, name: 'x'.repeat(256) }, 'name'],
      [{ ...base, availableCountries: ['USA'] }, 'availableCountries'],
      [{ ...base, introAmount: 50 }, 'introBillingCycles'],
      [{ ...base, introBillingCycles: 2 }, 'introAmount'],
      [{ ...base, trialPeriodDays: -1 }, 'trialPeriodDays'],
    ];
    for (const [body, param] of cases)
      expectError(await m.post('/v1/subscription/plan', body), 400, 'VALIDATION_FAILED', param);
    expectError(await m.post('/v1/subscription/plan', { ...base, exponent: 3 }), 422, 'INVALID_EXPONENT', 'exponent');
    expectError(
      await m.post('/v1/subscription/plan', { ...base, meterCodes: ['nope'] }),
      404,
      'NOT_FOUND',
      'meterCodes',
    );
    const malformed = await stack.http('POST', '/v1/subscription/plan', { key: m.key, rawBody: '{"name":' });
    expectError(malformed, 400, 'VALIDATION_FAILED');
  });

  it('PATCH changes the mutable fields, replaces availableCountries and refuses the immutable ones', async () => {
    const plan = await m.plan({ availableCountries: ['US', 'CA'] });
    const path = `/v1/subscription/plan/${plan.id}`;
    const r = await m.patch(path, { merchantCode: m.merchantCode, name: 'Renamed', availableCountries: ['BR'] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Renamed', availableCountries: ['BR'], amount: 1000, isActive: true });
    for (const field of ['amount', 'interval', 'intervalCount', 'currency']) {
      const refused = await m.patch(path, { merchantCode: m.merchantCode, name: 'Again', [field]: 5 });
      expectError(refused, 400, 'VALIDATION_FAILED', field);
    }
    expect((await m.get(path)).body.name).toBe('Renamed');
    expect((await m.patch(path, { name: 'No merchant code' })).body.name).toBe('No merchant code');
    const global = await m.patch(path, { merchantCode: m.merchantCode, availableCountries: [], isActive: false });
    expect(global.body).toMatchObject({ availableCountries: [], isActive: false });
    expectError(await m.patch('/v1/subscription/plan/999999', { merchantCode: m.merchantCode }), 404, 'NOT_FOUND');
    expectError(await m.patch('/v1/subscription/plan/abc', { merchantCode: m.merchantCode }), 404, 'NOT_FOUND');
  });

  it('DELETE archives (idempotently); archived plans stay listed with archivedAt', async () => {
    const plan = await m.plan();
    const r = await m.delete(`/v1/subscription/plan/${plan.id}`);
    expect(r.status).toBe(200);
    expect(r.body.archivedAt).toEqual(expect.any(String));
    const again = await m.delete(`/v1/subscription/plan/${plan.id}`);
    expect(again.body.archivedAt).toBe(r.body.archivedAt);
    const list = await m.get('/v1/subscription/plan?limit=100');
    expect(list.body.find((p: { id: number }) => p.id === plan.id)).toMatchObject({
      archivedAt: r.body.archivedAt,
      subscriberCount: 0,
    });
  });

  it('lists newest first with the country filter, paging and subscriberCount', async () => {
    const other = await billingMerchant(stack);
    const us = await other.plan({ availableCountries: ['US'] });
    const br = await other.plan({ availableCountries: ['BR'] });
    const everywhere = await other.plan();
    const all = await other.get('/v1/subscription/plan');
    expect(all.body.map((p: { id: number }) => p.id)).toEqual([everywhere.id, br.id, us.id]);
    const inUs = await other.get('/v1/subscription/plan?country=US');
    expect(inUs.body.map((p: { id: number }) => p.id)).toEqual([everywhere.id, us.id]);
    const page = await other.get(`/v1/subscription/plan?limit=1&startingAfter=${everywhere.id}`);
    expect(page.body.map((p: { id: number }) => p.id)).toEqual([br.id]);
    await other.subscription({ planId: us.id, card: cardData(undefined, { cardAddress: { country: 'US' } }) });
    const counted = await other.get('/v1/subscription/plan?country=US');
    expect(counted.body.find((p: { id: number }) => p.id === us.id).subscriberCount).toBe(1);
    expectError(await other.get('/v1/subscription/plan?country=USA'), 400, 'VALIDATION_FAILED', 'country');
    expectError(await other.get('/v1/subscription/plan?limit=0'), 400, 'VALIDATION_FAILED', 'limit');
  });

  it('another merchant or the other environment gets 404 for a plan', async () => {
    const plan = await m.plan();
    const stranger = await billingMerchant(stack);
    expectError(await stranger.get(`/v1/subscription/plan/${plan.id}`), 404, 'NOT_FOUND');
    const production = await billingMerchant(stack, 'production', m.merchantCode);
    expectError(await production.get(`/v1/subscription/plan/${plan.id}`), 404, 'NOT_FOUND');
    expectError(await production.delete(`/v1/subscription/plan/${plan.id}`), 404, 'NOT_FOUND');
    expect((await production.get('/v1/subscription/plan')).body).toEqual([]);
  });

  it('cmd.billing.plan.get answers the plan of the caller’s merchant and environment only', async () => {
    const plan = await m.plan();
    await m.delete(`/v1/subscription/plan/${plan.id}`);
    const rpc = stack.gateway!.get(RpcClient);
    const ctx = { requestId: 'r-1', environment: 'sandbox' as const, merchantCode: m.merchantCode };
    const got = await rpc.send<Record<string, unknown>>(BillingSubjects.getPlan, ctx, { id: plan.id });
    expect(got).toMatchObject({ id: plan.id, isActive: true, archivedAt: expect.any(String) });
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: DomainError) => e.code,
      );
    expect(
      await codeOf(rpc.send(BillingSubjects.getPlan, { ...ctx, environment: 'production' }, { id: plan.id })),
    ).toBe('NOT_FOUND');
    expect(await codeOf(rpc.send(BillingSubjects.getPlan, { ...ctx, merchantCode: 'someone' }, { id: plan.id }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(rpc.send(BillingSubjects.getPlan, ctx, { id: 'x' }))).toBe('VALIDATION_FAILED');
  });

  describe('meters', () => {
    it('creates meters of every scheme and lists them; a plan may price them', async () => {
      const schemes = [
        { scheme: 'per_unit', unitAmount: 2 },
        { scheme: 'package', packageSize: 100, packageAmount: 500 },
        {
          scheme: 'graduated',
          tiers: [
            { upTo: 100, unitAmount: 0 },
            { upTo: null, unitAmount: 3, flatAmount: 10 },
          ],
        },
        {
          scheme: 'volume',
          tiers: [
            { upTo: 10, unitAmount: 5 },
            { upTo: null, unitAmount: 4 },
          ],
        },
      ];
      for (const [i, pricing] of schemes.entries()) {
        const r = await m.post('/v1/subscription/meter', {
          code: `api_requests_${i}`,
          name: 'API requests',
          aggregation: 'sum',
          includedUnits: 1000,
          pricing,
        });
        expect(r.status).toBe(201);
        expect(r.body).toMatchObject({ code: `api_requests_${i}`, aggregation: 'sum', includedUnits: 1000 });
      }
      const list = await m.get('/v1/subscription/meter');
      expect(list.body.map((x: { code: string }) => x.code)).toEqual([3, 2, 1, 0].map((i) => `api_requests_${i}`));
      expect(list.body[1].pricing).toEqual(schemes[2]);
      const plan = await m.plan({ meterCodes: ['api_requests_0', 'api_requests_2'] });
      expect(plan.meterCodes).toEqual(['api_requests_0', 'api_requests_2']);
    });

    it('validates pricing (tiers ascending, last upTo null) and refuses a duplicate code', async () => {
      const meter = (pricing: unknown, o: Record<string, unknown> = {}) =>
        m.post('/v1/subscription/meter', { code: 'm_bad', name: 'M', aggregation: 'max', pricing, ...o });
      expectError(await meter({ scheme: 'per_unit' }), 400, 'VALIDATION_FAILED', 'pricing.unitAmount');
      expectError(await meter({ scheme: 'flat', unitAmount: 1 }), 400, 'VALIDATION_FAILED', 'pricing.scheme');
      expectError(
        await meter({ scheme: 'package', packageAmount: 1 }),
        400,
        'VALIDATION_FAILED',
        'pricing.packageSize',
      );
      const descending = {
        scheme: 'graduated',
        tiers: [
          { upTo: 10, unitAmount: 1 },
          { upTo: 5, unitAmount: 1 },
          { upTo: null, unitAmount: 1 },
        ],
      };
      expect((await meter(descending)).body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
      const open = { scheme: 'volume', tiers: [{ upTo: 10, unitAmount: 1 }] };
      expect((await meter(open)).body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
      expectError(
        await meter({ scheme: 'per_unit', unitAmount: 1 }, { aggregation: 'avg' }),
        400,
        'VALIDATION_FAILED',
        'aggregation',
      );
      expectError(await meter({ scheme: 'per_unit', unitAmount: -1 }), 400, 'VALIDATION_FAILED', 'pricing.unitAmount');
      expect((await meter({ scheme: 'per_unit', unitAmount: 1 })).status).toBe(201);
      expectError(await meter({ scheme: 'per_unit', unitAmount: 1 }), 409, 'DUPLICATE_METER_CODE', 'code');
    });
  });
});
