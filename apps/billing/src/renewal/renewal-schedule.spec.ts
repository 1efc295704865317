import fc from 'fast-check';
import { INTERVALS, Interval, periodBoundary } from '../period/period';
import { Pricing, rate } from '../pricing/pricing';
import { renewalLines, renewalPeriod } from './renewal-schedule';

describe('renewal schedule', () => {
  it('renews Jan 31 through a leap February without drifting', () => {
    let start = new Date('2028-01-31T00:00:00Z');
    const anchor = start;
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const p = renewalPeriod(anchor, { interval: 'month', intervalCount: 1 }, start);
      seen.push(p.end.toISOString().slice(0, 10));
      start = p.end;
    }
    expect(seen).toEqual(['2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31']);
  });

  it('a start off the anchor (a resume) anchors anew on itself', () => {
    const p = renewalPeriod(
      new Date('2028-01-01T00:00:00Z'),
      { interval: 'month', intervalCount: 1 },
      new Date('2028-01-20T00:00:00Z'),
    );
    expect([p.anchor, p.end].map((d) => d.toISOString().slice(0, 10))).toEqual(['2028-01-20', '2028-02-20']);
  });

  it('property: renewing period after period from any anchor lands on periodBoundary(anchor, n)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom<Interval>(...INTERVALS),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 40 }),
        (anchor, interval, count, n) => {
          const plan = { interval, intervalCount: count };
          let start = anchor;
          for (let i = 0; i < n; i++) {
            const p = renewalPeriod(anchor, plan, start);
            expect(p.anchor).toEqual(anchor);
            start = p.end;
          }
          expect(start).toEqual(periodBoundary(anchor, interval, count, n));
        },
      ),
    );
  });

  it('property: the lines sum to the amount; one line per meter after the base line', () => {
    const pricing = fc.oneof(
      fc.record({ scheme: fc.constant('per_unit' as const), unitAmount: fc.integer({ min: 0, max: 1000 }) }),
      fc.record({
        scheme: fc.constant('package' as const),
        packageSize: fc.integer({ min: 1, max: 50 }),
        packageAmount: fc.integer({ min: 0, max: 5000 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(
          fc.record({
            pricing,
            includedUnits: fc.integer({ min: 0, max: 100 }),
            quantity: fc.integer({ min: 0, max: 10_000 }),
          }),
          { maxLength: 5 },
        ),
        (base, cases) => {
          const meters = cases.map((c, i) => ({
            id: `m${i}`,
            name: `Meter ${i}`,
            aggregation: 'sum' as const,
            includedUnits: c.includedUnits,
            pricing: c.pricing as Pricing,
          }));
          const totals = new Map(
            cases.map((c, i) => [`m${i}`, { sum: c.quantity, count: 0, max: 0, last: 0 }] as const),
          );
          const { lines, amount } = renewalLines('Pro', base, meters, totals);
          if (!meters.length) {
            expect(lines).toEqual([]);
            expect(amount).toBe(base);
            return;
          }
          expect(lines).toHaveLength(meters.length + 1);
          expect(lines.reduce((s, l) => s + l.amount, 0)).toBe(amount);
          cases.forEach((c, i) => {
            const billable = Math.max(0, c.quantity - c.includedUnits);
            expect(lines[i + 1]).toEqual({
              description: `Meter ${i}`,
              meterId: `m${i}`,
              quantity: c.quantity,
              billableQuantity: billable,
              amount: rate(c.pricing as Pricing, billable),
            });
          });
        },
      ),
    );
  });
});
