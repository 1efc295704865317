/**
 * Change-plan proration, exact:
 * `prorationDelta({oldAmount, newAmount, periodStart, periodEnd, now, newInterval, newIntervalCount})` =
 * round_half_up(newAmount × remaining / newLen − oldAmount × remaining / oldLen), where remaining =
 * periodEnd − now, oldLen = periodEnd − periodStart and newLen = one period of the new plan starting at
 * periodStart (calendar-aware, `periodLengthMs`). Amounts are integers of minor units; the answer is one too.
 * A positive delta is an upgrade (charged now), zero or negative a downgrade (no refund).
 *
 * The whole expression is one rational computed with BigInt, rounded once: half up toward +∞ (−2.5 → −2,
 * 2.5 → 3). Milliseconds stand in for seconds: both lengths scale alike, so the ratios are the same.
 * A `now` outside [periodStart, periodEnd] or amounts that are not safe integers ≥ 0 throw a RangeError.
 */
import { Interval, periodLengthMs } from '../period/period';

export interface ProrationInput {
  oldAmount: number;
  newAmount: number;
  periodStart: Date;
  periodEnd: Date;
  now: Date;
  newInterval: Interval;
  newIntervalCount: number;
}

export function prorationDelta(input: ProrationInput): number {
  const { oldAmount, newAmount, periodStart, periodEnd, now } = input;
  assertAmount(oldAmount, 'oldAmount');
  assertAmount(newAmount, 'newAmount');
  const start = periodStart.getTime();
  const end = periodEnd.getTime();
  const at = now.getTime();
  if (!(start < end)) throw new RangeError('periodStart must be before periodEnd');
  if (at < start || at > end) throw new RangeError('now must lie within the current period');

  const remaining = BigInt(end - at);
  const oldLen = BigInt(end - start);
  const newLen = BigInt(periodLengthMs(periodStart, input.newInterval, input.newIntervalCount));
  // newAmount·r/newLen − oldAmount·r/oldLen = r·(newAmount·oldLen − oldAmount·newLen) / (newLen·oldLen)
  const numerator = remaining * (BigInt(newAmount) * oldLen - BigInt(oldAmount) * newLen);
  const denominator = newLen * oldLen;
  const delta = roundHalfUp(numerator, denominator);
  if (delta > BigInt(Number.MAX_SAFE_INTEGER) || delta < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError('Proration delta exceeds the safe integer range');
  }
  return Number(delta);
}

/** ⌊n/d + 1/2⌋ = ⌊(2n + d) / 2d⌋ for d > 0. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return floorDiv(2n * numerator + denominator, 2n * denominator);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b; // BigInt division truncates toward zero
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function assertAmount(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer >= 0, got ${value}`);
}
