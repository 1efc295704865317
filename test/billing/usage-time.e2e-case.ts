import { randomUUID } from 'node:crypto';
import { Pricing, rate } from '../../apps/billing/src/pricing/pricing';
import { TestStack } from '../support/stack';
import { expectError } from './billing-fixtures';
import { TimeClient, timeStack } from './renewal-fixtures';

jest.setTimeout(120_000);

interface MeterCase {
  code: string;
  aggregation: 'sum' | 'count' | 'max' | 'last';
  includedUnits: number;
  pricing: Pricing;
  quantities: number[];
  /** What the aggregation makes of `quantities` (events one minute apart, in order). */
  aggregated: number;
}

const METERS: MeterCase[] = [
  {
    code: 'api',
    aggregation: 'sum',
    includedUnits: 100,
    pricing: { scheme: 'per_unit', unitAmount: 2 },
    quantities: [30, 90, 130],
    aggregated: 250,
  },
  {
    code: 'seats',
    aggregation: 'max',
    includedUnits: 0,
    pricing: { scheme: 'package', packageSize: 10, packageAmount: 500 },
    quantities: [5, 25, 12],
    aggregated: 25,
  },
  {
    code: 'logins',
    aggregation: 'count',
    includedUnits: 1,
    pricing: {
      scheme: 'graduated',
      tiers: [
        { upTo: 2, unitAmount: 100 },
        { upTo: null, unitAmount: 50, flatAmount: 10 },
      ],
    },
    quantities: [1, 1, 7, 1],
    aggregated: 4,
  },
  {
    code: 'storage',
    aggregation: 'last',
    includedUnits: 5,
    pricing: {
      scheme: 'volume',
      tiers: [
        { upTo: 10, unitAmount: 30 },
        { upTo: null, unitAmount: 20 },
      ],
    },
    quantities: [40, 3, 17],
    aggregated: 17,
  },
];

/** Usage billed in arrears on the renewal invoice that closes its period. */
describe('usage rating at renewal', () => {
  let stack: TestStack;

  beforeAll(async () => (stack = await timeStack()));
  afterAll(() => stack?.stop());

  it('each aggregation and pricing scheme with included units: one line per meter; then the period is closed', async () => {
    const c = await TimeClient.start(stack, '2028-02-01T00:00:00Z');
    for (const m of METERS) {
      const r = await c.m.post('/v1/subscription/meter', {
        code: m.code,
        name: `Meter ${m.code}`,
        aggregation: m.aggregation,
        includedUnits: m.includedUnits,
        pricing: m.pricing,
      });
      expect(r.status).toBe(201);
    }
    const plan = await c.m.plan({ amount: 1000, meterCodes: METERS.map((m) => m.code) });
    const s = await c.m.subscription({ planId: plan.id });
    await c.advance({ to: '2028-02-20T00:00:00Z' });
    const usage = (meterCode: string, quantity: number, occurredAt: string, key = randomUUID()) =>
      c.m.post('/v1/subscription/usage', { subscriptionId: s.id, meterCode, quantity, occurredAt }, key);
    for (const m of METERS) {
      for (const [i, q] of m.quantities.entries()) {
        const r = await usage(m.code, q, new Date(Date.UTC(2028, 1, 10, 12, i)).toISOString());
        expect(r.status).toBe(201);
      }
    }
    await c.advance({ to: '2028-03-01T01:00:00Z' });
    const [, renewal] = await c.invoices(s.id);
    const meterLines = METERS.map((m) => {
      const billable = Math.max(0, m.aggregated - m.includedUnits);
      return {
        description: `Meter ${m.code}`,
        quantity: m.aggregated,
        billableQuantity: billable,
        amount: rate(m.pricing, billable),
      };
    });
    expect(renewal.lines).toEqual([
      { description: plan.name, amount: 1000 },
      ...meterLines.map((l) => expect.objectContaining(l)),
    ]);
    expect(renewal.lines.slice(1).every((l: { meterId?: string }) => typeof l.meterId === 'string')).toBe(true);
    const total = renewal.lines.reduce((sum: number, l: { amount: number }) => sum + l.amount, 0);
    expect(renewal).toMatchObject({ status: 'paid', amount: total });
    expect(total).toBe(1000 + 300 + 1500 + 260 + 240);
    const [charge] = await c.renewalPayments(s.id);
    expect(charge.value).toBe(total);

    // The February period was invoiced: late usage for it is refused; March usage is accepted.
    expectError(await usage('api', 5, '2028-02-25T00:00:00Z'), 422, 'USAGE_PERIOD_CLOSED');
    expect((await usage('api', 5, '2028-03-01T00:30:00Z')).status).toBe(201);
    await c.advance({ to: '2028-04-01T01:00:00Z' });
    const [, , april] = await c.invoices(s.id);
    expect(april.lines[1]).toMatchObject({ quantity: 5, billableQuantity: 0, amount: 0 });
    expect(april.amount).toBe(1000);
  });
});
