import fc from 'fast-check';
import { TestStack } from '../support/stack';
import { billingStack, BillingClient } from './billing-fixtures';

/**
 * Every billing route answers arbitrary JSON with a 4xx envelope (or a 2xx when it happens to be valid),
 * never a 5xx or a hang (issue 9 rule 8).
 */
describe('billing routes under arbitrary input', () => {
  let stack: TestStack;
  let m: BillingClient;
  let subscriptionId: string;
  let planId: number;
  let invoiceId: string;

  beforeAll(async () => {
    [stack, m] = await billingStack();
    planId = (await m.plan()).id;
    const s = await m.subscription({ planId });
    subscriptionId = s.id;
    invoiceId = s.firstInvoice.id;
  });
  afterAll(() => stack.stop());

  const json = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record({
      planId: fc.oneof(fc.integer(), fc.string(), fc.double(), fc.constant(null)),
      customerEmail: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 300 })),
      card: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ cardData: fc.jsonValue({ maxDepth: 2 }) })),
      startAt: fc.oneof(
        fc.string(),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      ),
      metadata: fc.jsonValue({ maxDepth: 2 }),
      merchantCode: fc.oneof(fc.constant(undefined), fc.string()),
      amount: fc.oneof(fc.integer(), fc.bigInt().map(String), fc.double()),
      interval: fc.string(),
      currency: fc.oneof(fc.constantFrom('USD', 'JPY', 'XXX', 'usd'), fc.string()),
      applyAt: fc.string(),
      pricing: fc.jsonValue({ maxDepth: 3 }),
      availableCountries: fc.jsonValue({ maxDepth: 1 }),
    }),
  );

  it('POST and PATCH bodies', async () => {
    const routes: Array<[string, string]> = [
      ['POST', '/v1/subscription'],
      ['POST', '/v1/subscription/plan'],
      ['PATCH', `/v1/subscription/plan/${planId}`],
      ['POST', '/v1/subscription/meter'],
      ['POST', `/v1/subscription/${subscriptionId}/change-plan`],
      ['POST', `/v1/subscription/${subscriptionId}/payment-method`],
      ['POST', `/v1/subscription/${subscriptionId}/pause`],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), json, async ([method, path], body) => {
        const r = await stack.http(method, path, { key: m.key, body });
        expect(r.status).toBeLessThan(500);
        if (r.status >= 400) expect(r.body.error).toMatchObject({ status: r.status, code: expect.any(String) });
      }),
      { numRuns: 120, seed: 9 },
    );
  });

  it('path handles and queries', async () => {
    const handle = fc.oneof(fc.string({ minLength: 1, maxLength: 80 }), fc.uuid(), fc.integer().map(String));
    const paths = (h: string, q: string) => [
      `/v1/subscription/${h}?merchantCode=${m.merchantCode}&${q}`,
      `/v1/subscription/${h}/invoice?${q}`,
      `/v1/subscription/invoice/${h}?${q}`,
      `/v1/subscription/plan/${h}?${q}`,
      `/v1/subscription?${q}`,
      `/v1/subscription/plan?${q}`,
      `/v1/subscription/meter?${q}`,
    ];
    const query = fc
      .dictionary(
        fc.constantFrom('limit', 'startingAfter', 'planId', 'status', 'country', 'customerEmail'),
        fc.string(),
      )
      .map((d) => new URLSearchParams(d).toString());
    await fc.assert(
      fc.asyncProperty(handle, query, fc.nat(6), async (h, q, i) => {
        const r = await m.get(paths(encodeURIComponent(h), q)[i]);
        expect(r.status).toBeLessThan(500);
        if (r.status >= 400) expect(r.body.error.code).toEqual(expect.any(String));
      }),
      { numRuns: 120, seed: 10 },
    );
    expect((await m.get(`/v1/subscription/invoice/${invoiceId}`)).status).toBe(200);
  });

  it('nothing reached a handler as an unexpected error', () => {
    for (const app of ['gateway', 'billing', 'payments']) {
      expect(stack.log(app).text()).not.toMatch(/Unexpected error|INTERNAL_ERROR/);
    }
  });
});
