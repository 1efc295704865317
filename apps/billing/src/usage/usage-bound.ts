import { DomainError } from '@app/errors';
import { Pricing, rate } from '../pricing/pricing';
import { Aggregation, billableQuantity } from './aggregate';

/** How a meter rates its period: what the bound needs to price the usage of a period. */
export interface MeterRating {
  aggregation: Aggregation;
  includedUnits: number;
  pricing: Pricing;
}

/** The unbilled usage of one subscription on one meter (usage_open_totals). */
export interface OpenTotal {
  subscriptionId: string;
  meterId: string;
  sum: bigint;
  count: number;
  max: number;
}

interface Open {
  sum: bigint;
  count: number;
  max: number;
  /** What the meter's line would charge for it; NaN when that is already past the bound. */
  amount: number;
}

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The safe bound of usage (Number.MAX_SAFE_INTEGER, the largest integer billing rates and the money library
 * accepts): a new event is refused (400 VALIDATION_FAILED on `quantity`) when, added to the subscription's
 * unbilled usage of that meter, it would push the period total, the meter's rated amount (quantity beyond
 * the included units times its price, tier by tier) or the next invoice (the plan's largest base fee plus
 * every meter's line) past it. `last` is bounded as `max` (the latest quantity is at most the largest). Events
 * admitted count towards the next ones of the same batch.
 */
export class UsageBound {
  private readonly open = new Map<string, Open>();
  private readonly invoices = new Map<string, number>();

  constructor(
    private readonly bases: ReadonlyMap<string, number>,
    totals: readonly OpenTotal[],
    private readonly meters: ReadonlyMap<string, MeterRating>,
  ) {
    for (const t of totals) {
      const meter = meters.get(t.meterId);
      const amount = meter ? amountOf(meter, t) : 0;
      this.open.set(key(t.subscriptionId, t.meterId), { sum: t.sum, count: t.count, max: t.max, amount });
      this.invoices.set(t.subscriptionId, this.invoiceOf(t.subscriptionId) + amount);
    }
  }

  /** Why the event cannot be taken, or undefined (and then it counts towards the next ones). */
  admit(subscriptionId: string, meterId: string, quantity: number): DomainError | undefined {
    const meter = this.meters.get(meterId);
    if (!meter) return undefined;
    const k = key(subscriptionId, meterId);
    const current = this.open.get(k) ?? { sum: 0n, count: 0, max: 0, amount: 0 };
    const next: Open = {
      sum: current.sum + BigInt(quantity),
      count: current.count + 1,
      max: Math.max(current.max, quantity),
      amount: 0,
    };
    const total = quantityOf(meter.aggregation, next);
    if (total > MAX) {
      return refuse(
        `this quantity would bring the unbilled ${meter.aggregation} of the meter to ${total}, past ` +
          `${Number.MAX_SAFE_INTEGER}, the largest usage total billing can rate`,
      );
    }
    next.amount = amountOf(meter, next);
    if (Number.isNaN(next.amount)) {
      return refuse(
        `this quantity would bring the meter's charge for the period past ${Number.MAX_SAFE_INTEGER} minor ` +
          'units, the largest amount billing can invoice',
      );
    }
    const invoice = this.invoiceOf(subscriptionId) - current.amount + next.amount;
    if (!Number.isSafeInteger(invoice)) {
      return refuse(
        `this quantity would bring the subscription's next invoice past ${Number.MAX_SAFE_INTEGER} minor ` +
          'units, the largest amount billing can invoice',
      );
    }
    this.open.set(k, next);
    this.invoices.set(subscriptionId, invoice);
    return undefined;
  }

  private invoiceOf(subscriptionId: string): number {
    return this.invoices.get(subscriptionId) ?? this.bases.get(subscriptionId) ?? 0;
  }
}

function quantityOf(aggregation: Aggregation, o: Pick<Open, 'sum' | 'count' | 'max'>): bigint {
  switch (aggregation) {
    case 'sum':
      return o.sum;
    case 'count':
      return BigInt(o.count);
    default:
      return BigInt(o.max);
  }
}

/** The meter's line for this usage, or NaN when the quantity or the amount is past the bound. */
function amountOf(meter: MeterRating, o: Pick<Open, 'sum' | 'count' | 'max'>): number {
  const quantity = quantityOf(meter.aggregation, o);
  if (quantity > MAX) return NaN;
  try {
    return rate(meter.pricing, billableQuantity(Number(quantity), meter.includedUnits));
  } catch (e) {
    if (e instanceof RangeError) return NaN;
    throw e;
  }
}

const key = (subscriptionId: string, meterId: string): string => `${subscriptionId}\n${meterId}`;

const refuse = (why: string): DomainError => DomainError.validation(`quantity refused: ${why}`, 'quantity');
