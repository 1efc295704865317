import fc from 'fast-check';
import { DateTime } from 'luxon';
import { INTERVALS, Interval, periodAt, periodBoundary, periodLengthMs } from './period';

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();
const boundaries = (anchor: string, interval: Interval, count: number, n: number) =>
  Array.from({ length: n }, (_, i) => iso(periodBoundary(at(anchor), interval, count, i)));

// Anchors from 1970 to 2200, any millisecond: month ends, leap days and times of day all come up.
const anchorArb = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('2200-01-01T00:00:00Z'),
  noInvalidDate: true,
});
const intervalArb = fc.constantFrom<Interval>(...INTERVALS);
const countArb = fc.integer({ min: 1, max: 24 });

describe('periodBoundary', () => {
  it('anchors months on the start day: Jan 31 → Feb 29 → Mar 31 → Apr 30', () => {
    expect(boundaries('2024-01-31T10:00:00.000Z', 'month', 1, 5)).toEqual([
      '2024-01-31T10:00:00.000Z',
      '2024-02-29T10:00:00.000Z',
      '2024-03-31T10:00:00.000Z',
      '2024-04-30T10:00:00.000Z',
      '2024-05-31T10:00:00.000Z',
    ]);
    expect(boundaries('2023-01-31T00:00:00.000Z', 'month', 1, 3)[1]).toBe('2023-02-28T00:00:00.000Z');
  });

  it('counts intervals: quarterly, fortnightly, every 3 days, yearly from a leap day', () => {
    expect(boundaries('2024-11-30T00:00:00.000Z', 'month', 3, 3)).toEqual([
      '2024-11-30T00:00:00.000Z',
      '2025-02-28T00:00:00.000Z',
      '2025-05-30T00:00:00.000Z',
    ]);
    expect(boundaries('2024-03-30T12:00:00.000Z', 'week', 2, 2)[1]).toBe('2024-04-13T12:00:00.000Z');
    expect(boundaries('2024-03-30T12:00:00.000Z', 'day', 3, 2)[1]).toBe('2024-04-02T12:00:00.000Z');
    expect(boundaries('2024-02-29T00:00:00.000Z', 'year', 1, 5)).toEqual([
      '2024-02-29T00:00:00.000Z',
      '2025-02-28T00:00:00.000Z',
      '2026-02-28T00:00:00.000Z',
      '2027-02-28T00:00:00.000Z',
      '2028-02-29T00:00:00.000Z',
    ]);
  });

  it.each([
    [0, 0],
    [-1, 1],
    [1.5, 1],
    [1, -1],
    [1, 0.5],
  ])('refuses intervalCount %p, n %p', (count, n) => {
    expect(() => periodBoundary(at('2024-01-01T00:00:00Z'), 'month', count, n)).toThrow(RangeError);
  });

  it('refuses a boundary past the year 9999', () => {
    expect(() => periodBoundary(at('9999-06-01T00:00:00Z'), 'year', 1, 1)).toThrow(RangeError);
  });

  it('property: month boundaries keep the anchor day, clamped to the month length, and its time of day', () => {
    fc.assert(
      fc.property(anchorArb, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 600 }), (anchor, count, n) => {
        const start = DateTime.fromJSDate(anchor, { zone: 'utc' });
        const boundary = DateTime.fromJSDate(periodBoundary(anchor, 'month', count, n), { zone: 'utc' });
        const months = start.year * 12 + start.month - 1 + n * count;
        expect(boundary.year).toBe(Math.floor(months / 12));
        expect(boundary.month).toBe((months % 12) + 1);
        expect(boundary.day).toBe(Math.min(start.day, boundary.daysInMonth!));
        expect(boundary.toFormat('HH:mm:ss.SSS')).toBe(start.toFormat('HH:mm:ss.SSS'));
      }),
    );
  });

  it('property: n periods of any interval are n × count units from the anchor (a year is 12 months, a week 7 days)', () => {
    fc.assert(
      fc.property(anchorArb, intervalArb, countArb, fc.integer({ min: 0, max: 200 }), (anchor, interval, count, n) => {
        const direct = periodBoundary(anchor, interval, count, n).getTime();
        if (interval === 'year') expect(periodBoundary(anchor, 'month', 1, 12 * count * n).getTime()).toBe(direct);
        if (interval === 'month') expect(periodBoundary(anchor, 'month', 1, count * n).getTime()).toBe(direct);
        if (interval === 'week') expect(anchor.getTime() + n * count * 7 * 86_400_000).toBe(direct);
        if (interval === 'day') expect(anchor.getTime() + n * count * 86_400_000).toBe(direct);
      }),
    );
  });

  it('property: boundaries strictly increase', () => {
    fc.assert(
      fc.property(anchorArb, intervalArb, countArb, fc.integer({ min: 0, max: 300 }), (anchor, interval, count, n) => {
        const here = periodBoundary(anchor, interval, count, n).getTime();
        expect(periodBoundary(anchor, interval, count, n + 1).getTime()).toBeGreaterThan(here);
      }),
    );
  });
});

describe('periodAt', () => {
  it('finds the period containing an instant, boundaries belonging to the period they start', () => {
    const anchor = at('2024-01-31T10:00:00.000Z');
    expect(periodAt(anchor, 'month', 1, anchor)).toEqual({
      index: 0,
      start: anchor,
      end: at('2024-02-29T10:00:00.000Z'),
    });
    expect(periodAt(anchor, 'month', 1, at('2024-02-29T09:59:59.999Z')).index).toBe(0);
    expect(periodAt(anchor, 'month', 1, at('2024-02-29T10:00:00.000Z'))).toEqual({
      index: 1,
      start: at('2024-02-29T10:00:00.000Z'),
      end: at('2024-03-31T10:00:00.000Z'),
    });
    expect(periodAt(anchor, 'month', 1, at('2024-03-30T23:00:00.000Z')).index).toBe(1);
    expect(periodAt(anchor, 'week', 1, at('2024-02-14T10:00:00.000Z')).index).toBe(2);
  });

  it('refuses an instant before the anchor', () => {
    expect(() => periodAt(at('2024-01-31T10:00:00Z'), 'month', 1, at('2024-01-31T09:00:00Z'))).toThrow(RangeError);
  });

  it('property: the period contains the instant and is the one periodBoundary names', () => {
    fc.assert(
      fc.property(
        anchorArb,
        intervalArb,
        countArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (anchor, interval, count, f) => {
          const later = new Date(anchor.getTime() + Math.floor(f * 50 * 366 * 86_400_000));
          const period = periodAt(anchor, interval, count, later);
          expect(period.start.getTime()).toBeLessThanOrEqual(later.getTime());
          expect(period.end.getTime()).toBeGreaterThan(later.getTime());
          expect(period.start).toEqual(periodBoundary(anchor, interval, count, period.index));
          expect(period.end).toEqual(periodBoundary(anchor, interval, count, period.index + 1));
        },
      ),
    );
  });
});

describe('periodLengthMs', () => {
  it('is calendar-aware', () => {
    const day = 86_400_000;
    expect(periodLengthMs(at('2024-02-01T00:00:00Z'), 'month', 1)).toBe(29 * day);
    expect(periodLengthMs(at('2023-02-01T00:00:00Z'), 'month', 1)).toBe(28 * day);
    expect(periodLengthMs(at('2024-03-01T00:00:00Z'), 'month', 1)).toBe(31 * day);
    expect(periodLengthMs(at('2024-01-01T00:00:00Z'), 'year', 1)).toBe(366 * day);
    expect(periodLengthMs(at('2024-01-01T00:00:00Z'), 'week', 2)).toBe(14 * day);
  });
});
