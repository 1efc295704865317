import fc from 'fast-check';
import { INTERVALS, Interval, periodBoundary, periodLengthMs } from '../period/period';
import { ProrationInput, prorationDelta, roundHalfUp } from './proration';

const at = (iso: string) => new Date(iso);

describe('prorationDelta', () => {
  it('month → year upgrade mid-period: the new plan over its own (365-day) year', () => {
    // 16 of January's 31 days remain: 120000 × 16/365 − 1000 × 16/31 = 4744.14…
    const delta = prorationDelta({
      oldAmount: 1000,
      newAmount: 120000,
      periodStart: at('2025-01-01T00:00:00Z'),
      periodEnd: at('2025-02-01T00:00:00Z'),
      now: at('2025-01-16T00:00:00Z'),
      newInterval: 'year',
      newIntervalCount: 1,
    });
    expect(delta).toBe(4744);
  });

  it('week → month upgrade: newLen is the calendar month starting at the period start (31 days of March)', () => {
    // 4.5 of 7 days remain: 5000 × 4.5/31 − 700 × 4.5/7 = 275.81
    const delta = prorationDelta({
      oldAmount: 700,
      newAmount: 5000,
      periodStart: at('2025-03-03T00:00:00Z'),
      periodEnd: at('2025-03-10T00:00:00Z'),
      now: at('2025-03-05T12:00:00Z'),
      newInterval: 'month',
      newIntervalCount: 1,
    });
    expect(delta).toBe(276);
  });

  it('a downgrade is negative', () => {
    const delta = prorationDelta({
      oldAmount: 3000,
      newAmount: 1000,
      periodStart: at('2025-01-01T00:00:00Z'),
      periodEnd: at('2025-02-01T00:00:00Z'),
      now: at('2025-01-01T00:00:00Z'),
      newInterval: 'month',
      newIntervalCount: 1,
    });
    expect(delta).toBe(-2000);
  });

  it.each([
    [0, 1, 1], // +0.5 → 1
    [1, 0, 0], // −0.5 → 0
    [5, 0, -2], // −2.5 → −2
    [0, 5, 3], // +2.5 → 3
  ])('rounds half up toward +∞ (old %p, new %p → %p at half the period)', (oldAmount, newAmount, expected) => {
    const delta = prorationDelta({
      oldAmount,
      newAmount,
      periodStart: at('2025-03-01T00:00:00Z'),
      periodEnd: at('2025-03-03T00:00:00Z'),
      now: at('2025-03-02T00:00:00Z'),
      newInterval: 'day',
      newIntervalCount: 2,
    });
    expect(delta).toBe(expected);
  });

  it('refuses a now outside the period, an empty period and amounts that are not integers ≥ 0', () => {
    const base: ProrationInput = {
      oldAmount: 1,
      newAmount: 2,
      periodStart: at('2025-03-01T00:00:00Z'),
      periodEnd: at('2025-04-01T00:00:00Z'),
      now: at('2025-03-02T00:00:00Z'),
      newInterval: 'month',
      newIntervalCount: 1,
    };
    expect(() => prorationDelta({ ...base, now: at('2025-04-01T00:00:00.001Z') })).toThrow(RangeError);
    expect(() => prorationDelta({ ...base, now: at('2025-02-28T23:59:59.999Z') })).toThrow(RangeError);
    expect(() => prorationDelta({ ...base, periodEnd: base.periodStart, now: base.periodStart })).toThrow(RangeError);
    expect(() => prorationDelta({ ...base, oldAmount: -1 })).toThrow(RangeError);
    expect(() => prorationDelta({ ...base, newAmount: 1.5 })).toThrow(RangeError);
  });
});

describe('roundHalfUp', () => {
  it.each([
    [7n, 2n, 4n],
    [-7n, 2n, -3n],
    [5n, 3n, 2n],
    [-5n, 3n, -2n],
    [4n, 3n, 1n],
    [-4n, 3n, -1n],
    [0n, 9n, 0n],
  ])('%p / %p → %p', (n, d, expected) => {
    expect(roundHalfUp(n, d)).toBe(expected);
  });
});

// A current period of any plan, and an instant within it.
const scenarioArb = fc
  .record({
    anchor: fc.date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    }),
    oldInterval: fc.constantFrom<Interval>(...INTERVALS),
    oldCount: fc.integer({ min: 1, max: 12 }),
    newInterval: fc.constantFrom<Interval>(...INTERVALS),
    newCount: fc.integer({ min: 1, max: 12 }),
    oldAmount: fc.integer({ min: 0, max: 100_000_000 }),
    newAmount: fc.integer({ min: 0, max: 100_000_000 }),
    position: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map((s) => {
    const periodEnd = periodBoundary(s.anchor, s.oldInterval, s.oldCount, 1);
    const length = periodEnd.getTime() - s.anchor.getTime();
    const input: ProrationInput = {
      oldAmount: s.oldAmount,
      newAmount: s.newAmount,
      periodStart: s.anchor,
      periodEnd,
      now: new Date(s.anchor.getTime() + Math.floor(s.position * length)),
      newInterval: s.newInterval,
      newIntervalCount: s.newCount,
    };
    return input;
  });

describe('prorationDelta properties', () => {
  it('is zero at the period end', () => {
    fc.assert(fc.property(scenarioArb, (input) => expect(prorationDelta({ ...input, now: input.periodEnd })).toBe(0)));
  });

  it('is never negative for an upgrade (the new plan costs at least as much per unit of time)', () => {
    fc.assert(
      fc.property(scenarioArb, (input) => {
        const oldLen = BigInt(input.periodEnd.getTime() - input.periodStart.getTime());
        const newLen = BigInt(periodLengthMs(input.periodStart, input.newInterval, input.newIntervalCount));
        fc.pre(BigInt(input.newAmount) * oldLen >= BigInt(input.oldAmount) * newLen);
        expect(prorationDelta(input)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('equals newAmount − oldAmount at the period start when both plans share the interval', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 12 }), (input, count) => {
        const periodEnd = periodBoundary(input.periodStart, input.newInterval, count, 1);
        const delta = prorationDelta({ ...input, periodEnd, now: input.periodStart, newIntervalCount: count });
        expect(delta).toBe(input.newAmount - input.oldAmount);
      }),
    );
  });

  it('is the exact rational rounded half up: an integer k with k − ½ ≤ x < k + ½', () => {
    fc.assert(
      fc.property(scenarioArb, (input) => {
        const delta = prorationDelta(input);
        expect(Number.isSafeInteger(delta)).toBe(true);
        const r = BigInt(input.periodEnd.getTime() - input.now.getTime());
        const oldLen = BigInt(input.periodEnd.getTime() - input.periodStart.getTime());
        const newLen = BigInt(periodLengthMs(input.periodStart, input.newInterval, input.newIntervalCount));
        // x = newAmount·r/newLen − oldAmount·r/oldLen, both sides scaled by 2·newLen·oldLen
        const twoX = 2n * (BigInt(input.newAmount) * r * oldLen - BigInt(input.oldAmount) * r * newLen);
        const k = BigInt(delta);
        expect((2n * k - 1n) * newLen * oldLen <= twoX).toBe(true);
        expect(twoX < (2n * k + 1n) * newLen * oldLen).toBe(true);
      }),
    );
  });
});
