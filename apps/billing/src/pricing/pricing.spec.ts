import fc from 'fast-check';
import { Pricing, Tier, pricingProblem, rate } from './pricing';

const tiers: Tier[] = [
  { upTo: 10, unitAmount: 100 },
  { upTo: 50, unitAmount: 80, flatAmount: 500 },
  { upTo: null, unitAmount: 50, flatAmount: 1000 },
];

describe('rate', () => {
  it('per_unit and package', () => {
    expect(rate({ scheme: 'per_unit', unitAmount: 25 }, 7)).toBe(175);
    const pack: Pricing = { scheme: 'package', packageSize: 100, packageAmount: 900 };
    expect([0, 1, 100, 101, 250].map((q) => rate(pack, q))).toEqual([0, 900, 900, 1800, 2700]);
  });

  it('graduated: each tier prices its own units, its flat amount only when it has units', () => {
    const graduated: Pricing = { scheme: 'graduated', tiers };
    expect(rate(graduated, 0)).toBe(0);
    expect(rate(graduated, 10)).toBe(1000);
    expect(rate(graduated, 11)).toBe(1000 + 80 + 500);
    expect(rate(graduated, 50)).toBe(1000 + 40 * 80 + 500);
    expect(rate(graduated, 60)).toBe(1000 + 40 * 80 + 500 + 10 * 50 + 1000);
  });

  it('volume: the tier containing the quantity prices every unit', () => {
    const volume: Pricing = { scheme: 'volume', tiers };
    expect(rate(volume, 0)).toBe(0);
    expect(rate(volume, 10)).toBe(1000);
    expect(rate(volume, 11)).toBe(11 * 80 + 500);
    expect(rate(volume, 50)).toBe(50 * 80 + 500);
    expect(rate(volume, 51)).toBe(51 * 50 + 1000);
  });

  it('is exact up to Number.MAX_SAFE_INTEGER and refuses to go beyond', () => {
    expect(rate({ scheme: 'per_unit', unitAmount: 3 }, 3_002_399_751_580_330)).toBe(9_007_199_254_740_990);
    expect(() => rate({ scheme: 'per_unit', unitAmount: 2 }, Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
    expect(() => rate({ scheme: 'per_unit', unitAmount: 1 }, -1)).toThrow(RangeError);
    expect(() => rate({ scheme: 'per_unit', unitAmount: 1 }, 0.5)).toThrow(RangeError);
  });
});

describe('pricingProblem', () => {
  it.each<[unknown]>([
    [{ scheme: 'per_unit', unitAmount: 0 }],
    [{ scheme: 'package', packageSize: 1, packageAmount: 10 }],
    [{ scheme: 'graduated', tiers: [{ upTo: null, unitAmount: 5 }] }],
    [{ scheme: 'volume', tiers }],
  ])('accepts %j', (pricing) => {
    expect(pricingProblem(pricing)).toBeUndefined();
  });

  it.each<[unknown, string]>([
    [null, 'pricing'],
    [[], 'pricing'],
    [{ scheme: 'tiered' }, 'pricing.scheme'],
    [{ scheme: 'per_unit' }, 'pricing.unitAmount'],
    [{ scheme: 'per_unit', unitAmount: -1 }, 'pricing.unitAmount'],
    [{ scheme: 'per_unit', unitAmount: 1.5 }, 'pricing.unitAmount'],
    [{ scheme: 'per_unit', unitAmount: '5' }, 'pricing.unitAmount'],
    [{ scheme: 'per_unit', unitAmount: 2 ** 53 }, 'pricing.unitAmount'],
    [{ scheme: 'package', packageSize: 0, packageAmount: 1 }, 'pricing.packageSize'],
    [{ scheme: 'package', packageSize: 1 }, 'pricing.packageAmount'],
    [{ scheme: 'graduated', tiers: [] }, 'pricing.tiers'],
    [{ scheme: 'graduated' }, 'pricing.tiers'],
    [{ scheme: 'volume', tiers: [{ upTo: 10, unitAmount: 1 }] }, 'pricing.tiers[0].upTo'],
    [
      {
        scheme: 'volume',
        tiers: [
          { upTo: null, unitAmount: 1 },
          { upTo: null, unitAmount: 1 },
        ],
      },
      'pricing.tiers[0].upTo',
    ],
    [
      {
        scheme: 'volume',
        tiers: [
          { upTo: 0, unitAmount: 1 },
          { upTo: null, unitAmount: 1 },
        ],
      },
      'pricing.tiers[0].upTo',
    ],
    [
      {
        scheme: 'graduated',
        tiers: [
          { upTo: 10, unitAmount: 1 },
          { upTo: 10, unitAmount: 1 },
          { upTo: null, unitAmount: 1 },
        ],
      },
      'pricing.tiers[1].upTo',
    ],
    [
      {
        scheme: 'graduated',
        tiers: [
          { upTo: 10, unitAmount: 1 },
          { upTo: null, unitAmount: -3 },
        ],
      },
      'pricing.tiers[1].unitAmount',
    ],
    [{ scheme: 'graduated', tiers: [{ upTo: null, unitAmount: 1, flatAmount: null }] }, 'pricing.tiers[0].flatAmount'],
    [{ scheme: 'graduated', tiers: [5] }, 'pricing.tiers[0]'],
    [
      {
        scheme: 'graduated',
        tiers: Array.from({ length: 101 }, (_, i) => ({ upTo: i === 100 ? null : i + 1, unitAmount: 1 })),
      },
      'pricing.tiers',
    ],
  ])('refuses %j at %s', (pricing, param) => {
    expect(pricingProblem(pricing)?.param).toBe(param);
  });
});

const amountArb = fc.integer({ min: 0, max: 1_000_000 });
const tiersArb: fc.Arbitrary<Tier[]> = fc
  .uniqueArray(fc.integer({ min: 1, max: 100_000 }), { minLength: 0, maxLength: 8 })
  .chain((bounds) =>
    fc.tuple(
      ...[...bounds.sort((a, b) => a - b), null].map((upTo) =>
        fc.record({
          upTo: fc.constant(upTo),
          unitAmount: amountArb,
          flatAmount: fc.option(amountArb, { nil: undefined }),
        }),
      ),
    ),
  );
const pricingArb: fc.Arbitrary<Pricing> = fc.oneof(
  fc.record({ scheme: fc.constant('per_unit' as const), unitAmount: amountArb }),
  fc.record({
    scheme: fc.constant('package' as const),
    packageSize: fc.integer({ min: 1, max: 1000 }),
    packageAmount: amountArb,
  }),
  fc.record({ scheme: fc.constantFrom('graduated' as const, 'volume' as const), tiers: tiersArb }),
);
const quantityArb = fc.integer({ min: 0, max: 1_000_000 });

describe('rate properties', () => {
  it('every generated pricing is valid', () => {
    fc.assert(fc.property(pricingArb, (pricing) => expect(pricingProblem(pricing)).toBeUndefined()));
  });

  it('graduated equals the sum over its tiers of the units in each tier', () => {
    fc.assert(
      fc.property(tiersArb, quantityArb, (tiers, q) => {
        let expected = 0;
        let from = 0; // units already priced by lower tiers
        for (const tier of tiers) {
          const units = Math.max(0, Math.min(q, tier.upTo ?? Infinity) - from);
          if (units > 0) expected += units * tier.unitAmount + (tier.flatAmount ?? 0);
          from = Math.max(from, tier.upTo ?? Infinity);
        }
        expect(rate({ scheme: 'graduated', tiers }, q)).toBe(expected);
      }),
    );
  });

  it('volume prices every unit at exactly one tier: the one containing the quantity', () => {
    fc.assert(
      fc.property(tiersArb, fc.integer({ min: 1, max: 1_000_000 }), (tiers, q) => {
        const containing = tiers.filter(
          (tier, i) => q > (i === 0 ? 0 : tiers[i - 1].upTo!) && (tier.upTo === null || q <= tier.upTo),
        );
        expect(containing).toHaveLength(1);
        const [tier] = containing;
        expect(rate({ scheme: 'volume', tiers }, q)).toBe(q * tier.unitAmount + (tier.flatAmount ?? 0));
      }),
    );
  });

  it('quantity 0 costs nothing in every scheme', () => {
    fc.assert(fc.property(pricingArb, (pricing) => expect(rate(pricing, 0)).toBe(0)));
  });

  it('per_unit, package and graduated never decrease as the quantity grows', () => {
    const monotoneArb = pricingArb.filter((p) => p.scheme !== 'volume');
    fc.assert(
      fc.property(monotoneArb, quantityArb, fc.integer({ min: 0, max: 1000 }), (pricing, q, more) => {
        expect(rate(pricing, q + more)).toBeGreaterThanOrEqual(rate(pricing, q));
      }),
    );
  });

  it('answers a safe integer', () => {
    fc.assert(
      fc.property(pricingArb, quantityArb, (pricing, q) => expect(Number.isSafeInteger(rate(pricing, q))).toBe(true)),
    );
  });
});
