import fc from 'fast-check';
import { AGGREGATIONS, UsageSample, aggregate, billableQuantity, rateMeter } from './aggregate';

const event = (quantity: number, occurredAt: string, seq: string): UsageSample => ({
  quantity,
  occurredAt: new Date(occurredAt),
  seq,
});

const events = [
  event(5, '2025-01-03T00:00:00Z', '0193a000-0000-7000-8000-000000000002'),
  event(9, '2025-01-02T00:00:00Z', '0193a000-0000-7000-8000-000000000003'),
  event(2, '2025-01-03T00:00:00Z', '0193a000-0000-7000-8000-000000000001'),
  event(0, '2025-01-01T00:00:00Z', '0193a000-0000-7000-8000-000000000004'),
];

describe('aggregate', () => {
  it('sum, count, max, last', () => {
    expect(aggregate('sum', events)).toBe(16);
    expect(aggregate('count', events)).toBe(4);
    expect(aggregate('max', events)).toBe(9);
    // Two events share the latest occurredAt: the greater seq (the later-recorded one) wins.
    expect(aggregate('last', events)).toBe(5);
    expect(aggregate('last', [...events].reverse())).toBe(5);
  });

  it.each(AGGREGATIONS)('%s of no events is 0', (mode) => {
    expect(aggregate(mode, [])).toBe(0);
  });

  it('refuses a sum beyond Number.MAX_SAFE_INTEGER', () => {
    const big = event(Number.MAX_SAFE_INTEGER, '2025-01-01T00:00:00Z', 'a');
    expect(() => aggregate('sum', [big, event(1, '2025-01-01T00:00:00Z', 'b')])).toThrow(RangeError);
    expect(aggregate('max', [big, big])).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('billableQuantity and rateMeter', () => {
  it('subtracts the included units, never below zero', () => {
    expect(billableQuantity(16, 10)).toBe(6);
    expect(billableQuantity(4, 10)).toBe(0);
    expect(billableQuantity(0, 0)).toBe(0);
  });

  it('rates the billable quantity with the meter pricing', () => {
    const meter = {
      aggregation: 'sum' as const,
      includedUnits: 10,
      pricing: { scheme: 'per_unit' as const, unitAmount: 25 },
    };
    expect(rateMeter(meter, events)).toEqual({ quantity: 16, billableQuantity: 6, amount: 150 });
    expect(rateMeter({ ...meter, aggregation: 'count' }, events)).toEqual({
      quantity: 4,
      billableQuantity: 0,
      amount: 0,
    });
    expect(rateMeter({ ...meter, aggregation: 'max', includedUnits: 0 }, [])).toEqual({
      quantity: 0,
      billableQuantity: 0,
      amount: 0,
    });
  });
});

const sampleArb = fc.record({
  quantity: fc.integer({ min: 0, max: 1_000_000 }),
  occurredAt: fc.date({
    min: new Date('2025-01-01T00:00:00Z'),
    max: new Date('2025-01-02T00:00:00Z'),
    noInvalidDate: true,
  }),
  seq: fc.uuid({ version: 7 }),
});

describe('aggregate properties', () => {
  it('does not depend on the order the events come in', () => {
    fc.assert(
      fc.property(fc.array(sampleArb, { maxLength: 50 }), fc.constantFrom(...AGGREGATIONS), (samples, mode) => {
        expect(aggregate(mode, [...samples].reverse())).toBe(aggregate(mode, samples));
      }),
    );
  });

  it('last is the quantity of the event that sorts last by (occurredAt, seq)', () => {
    fc.assert(
      fc.property(fc.array(sampleArb, { minLength: 1, maxLength: 50 }), (samples) => {
        const sorted = [...samples].sort(
          (a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0),
        );
        expect(aggregate('last', samples)).toBe(sorted[sorted.length - 1].quantity);
      }),
    );
  });

  it('max ≤ sum, and last ≤ max', () => {
    fc.assert(
      fc.property(fc.array(sampleArb, { maxLength: 50 }), (samples) => {
        expect(aggregate('max', samples)).toBeLessThanOrEqual(aggregate('sum', samples));
        expect(aggregate('last', samples)).toBeLessThanOrEqual(aggregate('max', samples));
      }),
    );
  });
});
