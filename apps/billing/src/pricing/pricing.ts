/**
 * Meter pricing: how a period's billable quantity of a meter becomes an amount.
 *
 * - `Pricing`: `{scheme: 'per_unit', unitAmount}` | `{scheme: 'package', packageSize, packageAmount}` |
 *   `{scheme: 'graduated' | 'volume', tiers: [{upTo: int | null, unitAmount, flatAmount?}]}`.
 * - `pricingProblem(p)`: the first thing wrong with an untrusted pricing object as `{message, param}` (param
 *   like `pricing.tiers[1].upTo`), or undefined when it is a valid `Pricing`: amounts are integers ≥ 0,
 *   packageSize ≥ 1, tiers non-empty, `upTo` strictly ascending positive integers, null on the last tier only.
 * - `rate(p, quantity)`: the amount in minor units for a billable quantity. per_unit q × unitAmount; package
 *   ⌈q / packageSize⌉ × packageAmount; graduated: each tier prices the units that fall in it (unitAmount
 *   each, plus its flatAmount when it has any unit); volume: the single tier containing q prices all of them,
 *   q × unitAmount + flatAmount. Quantity 0 costs 0 in every scheme. Computed with BigInt; a result above
 *   Number.MAX_SAFE_INTEGER throws a RangeError rather than losing precision.
 */

export interface Tier {
  /** Last unit of the tier, inclusive; null = no upper bound (the last tier). */
  upTo: number | null;
  unitAmount: number;
  flatAmount?: number;
}

export type Pricing =
  | { scheme: 'per_unit'; unitAmount: number }
  | { scheme: 'package'; packageSize: number; packageAmount: number }
  | { scheme: 'graduated' | 'volume'; tiers: Tier[] };

export type PricingScheme = Pricing['scheme'];

export const PRICING_SCHEMES: readonly PricingScheme[] = ['per_unit', 'package', 'graduated', 'volume'];

/** Tiers beyond this are a mistake, not a price list; it also bounds the work of rating. */
export const MAX_TIERS = 100;

export interface PricingProblem {
  message: string;
  param: string;
}

export function pricingProblem(p: unknown, param = 'pricing'): PricingProblem | undefined {
  if (!isRecord(p)) return { message: `${param} must be an object`, param };
  switch (p.scheme) {
    case 'per_unit':
      return amountProblem(p.unitAmount, `${param}.unitAmount`);
    case 'package':
      return (
        integerProblem(p.packageSize, `${param}.packageSize`, 1) ??
        amountProblem(p.packageAmount, `${param}.packageAmount`)
      );
    case 'graduated':
    case 'volume':
      return tiersProblem(p.tiers, `${param}.tiers`);
    default:
      return { message: `${param}.scheme must be one of ${PRICING_SCHEMES.join(', ')}`, param: `${param}.scheme` };
  }
}

function tiersProblem(tiers: unknown, param: string): PricingProblem | undefined {
  if (!Array.isArray(tiers) || tiers.length === 0) return { message: `${param} must be a non-empty array`, param };
  if (tiers.length > MAX_TIERS) return { message: `${param} must have at most ${MAX_TIERS} tiers`, param };
  let previous = 0;
  for (const [i, tier] of tiers.entries()) {
    const at = `${param}[${i}]`;
    if (!isRecord(tier)) return { message: `${at} must be an object`, param: at };
    const last = i === tiers.length - 1;
    if (last && tier.upTo !== null) return { message: `${at}.upTo must be null on the last tier`, param: `${at}.upTo` };
    if (!last) {
      const problem = integerProblem(tier.upTo, `${at}.upTo`, 1);
      if (problem) return { ...problem, message: `${problem.message} (only the last tier's upTo is null)` };
      if ((tier.upTo as number) <= previous) {
        return { message: `${at}.upTo must be greater than the previous tier's`, param: `${at}.upTo` };
      }
      previous = tier.upTo as number;
    }
    const problem =
      amountProblem(tier.unitAmount, `${at}.unitAmount`) ??
      (tier.flatAmount === undefined ? undefined : amountProblem(tier.flatAmount, `${at}.flatAmount`));
    if (problem) return problem;
  }
  return undefined;
}

function amountProblem(value: unknown, param: string): PricingProblem | undefined {
  return integerProblem(value, param, 0);
}

function integerProblem(value: unknown, param: string, min: number): PricingProblem | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min) return undefined;
  return { message: `${param} must be an integer >= ${min}`, param };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function rate(p: Pricing, quantity: number): number {
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError(`Quantity must be an integer >= 0, got ${quantity}`);
  }
  if (quantity === 0) return 0;
  return toSafeNumber(rateBig(p, BigInt(quantity)));
}

function rateBig(p: Pricing, q: bigint): bigint {
  switch (p.scheme) {
    case 'per_unit':
      return q * BigInt(p.unitAmount);
    case 'package': {
      const size = BigInt(p.packageSize);
      return ((q + size - 1n) / size) * BigInt(p.packageAmount);
    }
    case 'graduated':
      return tierCharges(p.tiers, q).reduce((sum, charge) => sum + charge, 0n);
    case 'volume': {
      const tier = volumeTier(p.tiers, q);
      return q * BigInt(tier.unitAmount) + BigInt(tier.flatAmount ?? 0);
    }
    default:
      return assertNever(p);
  }
}

/** Graduated pricing, tier by tier: what each tier charges for the units of `q` that fall in it. */
export function tierCharges(tiers: Tier[], q: bigint): bigint[] {
  let floor = 0n;
  return tiers.map((tier) => {
    const ceiling = tier.upTo === null ? q : BigInt(tier.upTo);
    const units = (q < ceiling ? q : ceiling) - floor;
    floor = ceiling;
    return units > 0n ? units * BigInt(tier.unitAmount) + BigInt(tier.flatAmount ?? 0) : 0n;
  });
}

/** Volume pricing: the first tier whose `upTo` reaches `q` (the last one is unbounded). */
export function volumeTier(tiers: Tier[], q: bigint): Tier {
  return tiers.find((tier) => tier.upTo === null || q <= BigInt(tier.upTo)) ?? tiers[tiers.length - 1];
}

function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`Amount ${value} exceeds Number.MAX_SAFE_INTEGER minor units`);
  }
  return Number(value);
}

function assertNever(value: never): never {
  throw new RangeError(`Unknown pricing scheme ${JSON.stringify(value)}`);
}
