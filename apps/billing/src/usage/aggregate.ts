/**
 * Rating a meter's usage for one period (billed in arrears on the renewal invoice).
 *
 * - `aggregate(mode, events)`: `sum` of the quantities, `count` of the events, `max` quantity, or `last`: the
 *   quantity of the latest `occurredAt`, ties broken by the greater `seq` (a UUID v7 id sorts by insertion).
 *   No events → 0 in every mode. Quantities are integers ≥ 0; a sum beyond Number.MAX_SAFE_INTEGER throws
 *   a RangeError.
 * - `billableQuantity(aggregated, includedUnits)` = max(0, aggregated − includedUnits).
 * - `rateMeter({aggregation, includedUnits, pricing}, events)` → `{quantity, billableQuantity, amount}`: the
 *   fields of an invoice meter line (quantity = the aggregated total, amount = `rate(pricing, billable)`).
 */
import { Pricing, rate } from '../pricing/pricing';

export type Aggregation = 'sum' | 'count' | 'max' | 'last';

export const AGGREGATIONS: readonly Aggregation[] = ['sum', 'count', 'max', 'last'];

export interface UsageSample {
  quantity: number;
  occurredAt: Date;
  seq: string;
}

export interface MeterRating {
  aggregation: Aggregation;
  includedUnits: number;
  pricing: Pricing;
}

export interface RatedMeter {
  quantity: number;
  billableQuantity: number;
  amount: number;
}

export function aggregate(mode: Aggregation, events: readonly UsageSample[]): number {
  switch (mode) {
    case 'sum': {
      const total = events.reduce((sum, event) => sum + event.quantity, 0);
      // Integers add exactly below 2^53; past it the float sum may already be off, so refuse it.
      if (!Number.isSafeInteger(total)) throw new RangeError('Usage sum exceeds Number.MAX_SAFE_INTEGER');
      return total;
    }
    case 'count':
      return events.length;
    case 'max':
      return events.reduce((max, event) => (event.quantity > max ? event.quantity : max), 0);
    case 'last':
      return (
        events.reduce<UsageSample | undefined>(
          (latest, event) => (latest && !isLater(event, latest) ? latest : event),
          undefined,
        )?.quantity ?? 0
      );
    default:
      return assertNever(mode);
  }
}

function isLater(a: UsageSample, b: UsageSample): boolean {
  const diff = a.occurredAt.getTime() - b.occurredAt.getTime();
  return diff !== 0 ? diff > 0 : a.seq > b.seq;
}

export function billableQuantity(aggregated: number, includedUnits: number): number {
  return Math.max(0, aggregated - includedUnits);
}

export function rateMeter(meter: MeterRating, events: readonly UsageSample[]): RatedMeter {
  const quantity = aggregate(meter.aggregation, events);
  const billable = billableQuantity(quantity, meter.includedUnits);
  return { quantity, billableQuantity: billable, amount: rate(meter.pricing, billable) };
}

function assertNever(value: never): never {
  throw new RangeError(`Unknown aggregation ${String(value)}`);
}
