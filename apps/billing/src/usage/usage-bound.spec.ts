import { DomainError } from '@app/errors';
import { MeterRating, UsageBound } from './usage-bound';

const HALF = 2 ** 52;
const sum = (unitAmount: number, includedUnits = 0): MeterRating => ({
  aggregation: 'sum',
  includedUnits,
  pricing: { scheme: 'per_unit', unitAmount },
});
const refusal = (e: DomainError | undefined): string | undefined => e && `${e.code}:${e.param}`;

describe('UsageBound', () => {
  it('refuses the event that would push a period sum past Number.MAX_SAFE_INTEGER, counting earlier ones', () => {
    const bound = new UsageBound(new Map([['s', 1000]]), [], new Map([['m', sum(0)]]));
    expect(bound.admit('s', 'm', HALF)).toBeUndefined();
    const second = bound.admit('s', 'm', HALF);
    expect(refusal(second)).toBe('VALIDATION_FAILED:quantity');
    expect(second!.message).toMatch(/sum of the meter to 9007199254740992/);
    // The refused one did not count: what fits still fits.
    expect(bound.admit('s', 'm', HALF - 1)).toBeUndefined();
    expect(bound.admit('s', 'm', 1)).toBeDefined();
  });

  it('starts from the stored unbilled totals', () => {
    const totals = [{ subscriptionId: 's', meterId: 'm', sum: BigInt(HALF), count: 1, max: HALF }];
    const bound = new UsageBound(new Map([['s', 0]]), totals, new Map([['m', sum(0)]]));
    expect(bound.admit('s', 'm', HALF)).toBeDefined();
    expect(bound.admit('other', 'm', HALF)).toBeUndefined();
  });

  it('refuses a rated amount past the bound (a tier product), net of included units', () => {
    const bound = new UsageBound(new Map(), [], new Map([['m', sum(1000, 10)]]));
    expect(bound.admit('s', 'm', 2 ** 50)?.message).toMatch(/meter's charge for the period/);
    expect(bound.admit('s', 'm', 2 ** 40)).toBeUndefined();
  });

  it('refuses what would push the invoice (base fee plus every line) past the bound', () => {
    const meters = new Map([
      ['a', sum(1)],
      ['b', sum(1)],
    ]);
    const bound = new UsageBound(new Map([['s', 1000]]), [], meters);
    expect(bound.admit('s', 'a', HALF)).toBeUndefined();
    expect(bound.admit('s', 'b', HALF)?.message).toMatch(/next invoice/);
    expect(bound.admit('s', 'b', HALF - 1001)).toBeUndefined();
  });

  it('bounds max and last by the largest quantity, count by the number of events', () => {
    const meters = new Map<string, MeterRating>([
      ['max', { aggregation: 'max', includedUnits: 0, pricing: { scheme: 'per_unit', unitAmount: 4 } }],
      ['count', { aggregation: 'count', includedUnits: 0, pricing: { scheme: 'per_unit', unitAmount: 1 } }],
    ]);
    const bound = new UsageBound(new Map(), [], meters);
    for (let i = 0; i < 3; i++) expect(bound.admit('s', 'max', 2 ** 50)).toBeUndefined();
    expect(bound.admit('s', 'max', 2 ** 51)).toBeDefined();
    expect(bound.admit('s2', 'count', Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });
});
