import type { InvoiceLineView } from '@app/contracts';
import { billableQuantity } from '../usage/aggregate';
import type { Aggregation } from '../usage/aggregate';
import { periodAt, periodBoundary } from '../period/period';
import { Pricing, rate } from '../pricing/pricing';
import type { PlanEntity } from '../plan/plan.entity';

/**
 * The period a renewal at `start` opens, anchored on `anchor` (Jan 31 → Feb 29 → Mar 31). A start that is
 * not one of the anchor's boundaries (the anchor moved, e.g. a resume or an interval change) anchors anew
 * on `start` itself.
 */
export function renewalPeriod(
  anchor: Date | null,
  plan: Pick<PlanEntity, 'interval' | 'intervalCount'>,
  start: Date,
): { anchor: Date; start: Date; end: Date } {
  if (anchor && anchor.getTime() <= start.getTime()) {
    const p = periodAt(anchor, plan.interval, plan.intervalCount, start);
    if (p.start.getTime() === start.getTime()) return { anchor, start, end: p.end };
  }
  return { anchor: start, start, end: periodBoundary(start, plan.interval, plan.intervalCount, 1) };
}

export interface RatedMeterInput {
  id: string;
  name: string;
  aggregation: Aggregation;
  includedUnits: number;
  pricing: Pricing;
}

/**
 * The lines of a renewal invoice: the base fee of the new period (in advance), then one line per meter of
 * the closing period's usage (in arrears). `totals` are the closing period's aggregates per meter id.
 * The invoice amount is the sum of the lines.
 */
export function renewalLines(
  description: string,
  baseAmount: number,
  meters: readonly RatedMeterInput[],
  totals: ReadonlyMap<string, Record<Aggregation, number>>,
): { lines: InvoiceLineView[]; amount: number } {
  const lines: InvoiceLineView[] = [{ description, amount: baseAmount }];
  for (const meter of meters) {
    const quantity = totals.get(meter.id)?.[meter.aggregation] ?? 0;
    const billable = billableQuantity(quantity, meter.includedUnits);
    lines.push({
      description: meter.name,
      meterId: meter.id,
      quantity,
      billableQuantity: billable,
      amount: rate(meter.pricing, billable),
    });
  }
  const amount = lines.reduce((sum, line) => sum + line.amount, 0);
  if (!Number.isSafeInteger(amount)) throw new RangeError('Invoice amount exceeds Number.MAX_SAFE_INTEGER');
  return { lines: meters.length ? lines : [], amount };
}
