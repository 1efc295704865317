/**
 * Billing periods: calendar arithmetic in UTC with luxon, month-end anchored.
 *
 * - `periodBoundary(anchor, interval, intervalCount, n)`: the start of period `n` (0 = the anchor), always
 *   computed from the anchor (Jan 31 → Feb 28/29 → Mar 31 → Apr 30), never by stepping from the previous
 *   boundary, so the day of month never drifts down after a short month.
 * - `periodAt(anchor, interval, intervalCount, at)`: the period containing `at` (`at >= anchor`), as
 *   `{index, start, end}` with `start <= at < end`.
 * - `periodLengthMs(start, interval, intervalCount)`: the length of one period beginning at `start` (a
 *   February month is shorter than a March one), used by proration.
 *
 * Bad arguments (a non-positive or fractional count, a negative `n`, `at` before the anchor, a date past the
 * year 9999) throw a RangeError: they are programming errors, not input to answer.
 */
import { LATEST_TIME_MS } from '@app/clock';
import { DateTime } from 'luxon';

export type Interval = 'day' | 'week' | 'month' | 'year';

export const INTERVALS: readonly Interval[] = ['day', 'week', 'month', 'year'];

export interface Period {
  index: number;
  start: Date;
  end: Date;
}

const DAY_MS = 86_400_000;
const FIXED_MS: Partial<Record<Interval, number>> = { day: DAY_MS, week: 7 * DAY_MS };
const MONTHS: Partial<Record<Interval, number>> = { month: 1, year: 12 };

export function periodBoundary(anchor: Date, interval: Interval, intervalCount: number, n: number): Date {
  assertCount(intervalCount);
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Period index must be an integer >= 0, got ${n}`);
  const fixed = FIXED_MS[interval];
  // Days and weeks are exact in UTC (no daylight saving), months and years come from the calendar.
  const boundary =
    fixed !== undefined
      ? DateTime.fromMillis(anchor.getTime(), { zone: 'utc' }).plus({ milliseconds: n * intervalCount * fixed })
      : DateTime.fromMillis(anchor.getTime(), { zone: 'utc' }).plus({ months: n * intervalCount * monthsOf(interval) });
  if (!boundary.isValid || boundary.toMillis() > LATEST_TIME_MS) {
    throw new RangeError(`Period ${n} of ${intervalCount} ${interval} from ${anchor.toISOString()} is out of range`);
  }
  return boundary.toJSDate();
}

export function periodAt(anchor: Date, interval: Interval, intervalCount: number, at: Date): Period {
  assertCount(intervalCount);
  if (at.getTime() < anchor.getTime()) {
    throw new RangeError(`${at.toISOString()} is before the anchor ${anchor.toISOString()}`);
  }
  let index = estimateIndex(anchor, interval, intervalCount, at);
  // The estimate is within one of the answer (a clamped month-end or a time of day); settle it exactly.
  while (index > 0 && periodBoundary(anchor, interval, intervalCount, index).getTime() > at.getTime()) index--;
  while (periodBoundary(anchor, interval, intervalCount, index + 1).getTime() <= at.getTime()) index++;
  return {
    index,
    start: periodBoundary(anchor, interval, intervalCount, index),
    end: periodBoundary(anchor, interval, intervalCount, index + 1),
  };
}

export function periodLengthMs(start: Date, interval: Interval, intervalCount: number): number {
  return periodBoundary(start, interval, intervalCount, 1).getTime() - start.getTime();
}

function estimateIndex(anchor: Date, interval: Interval, intervalCount: number, at: Date): number {
  const fixed = FIXED_MS[interval];
  if (fixed !== undefined) return Math.floor((at.getTime() - anchor.getTime()) / (fixed * intervalCount));
  const months = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
  return Math.max(0, Math.floor(months / (monthsOf(interval) * intervalCount)));
}

function monthsOf(interval: Interval): number {
  const months = MONTHS[interval];
  if (months === undefined) throw new RangeError(`Unknown interval ${String(interval)}`);
  return months;
}

function assertCount(intervalCount: number): void {
  if (!Number.isSafeInteger(intervalCount) || intervalCount < 1) {
    throw new RangeError(`Interval count must be an integer >= 1, got ${intervalCount}`);
  }
}
