import fc from 'fast-check';
import { CreatePaymentLinkRequest, LinkPlanAnswer } from '@app/contracts';
import { DomainError } from '@app/errors';
import { assertPlanOpen, linkTerms, SINGLE_USE_TTL_MS } from './link-rules';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const usd = (value?: number) => ({ currency: 'USD', ...(value === undefined ? {} : { value }), exponent: 2 });
const PLAN: LinkPlanAnswer = {
  id: 7,
  isActive: true,
  archivedAt: null,
  currency: 'EUR',
  amount: 990,
  exponent: 2,
  name: 'Basic',
  interval: 'month',
  intervalCount: 1,
  trialPeriodDays: 0,
};

function refusal(f: () => unknown): { code: string; param?: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, param: e.param };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('link terms', () => {
  it('defaults: one-time, fixed, single use, 24 hours', () => {
    expect(linkTerms({ amount: usd(500) } as CreatePaymentLinkRequest, NOW)).toEqual({
      type: 'one-time',
      amountMode: 'fixed',
      currency: 'USD',
      exponent: 2,
      amountValue: 500,
      amountMin: null,
      amountMax: null,
      subscriptionPlanId: null,
      plan: null,
      reusable: false,
      maxUses: 1,
      expiresAt: new Date(NOW.getTime() + SINGLE_USE_TTL_MS),
    });
  });

  it('a reusable link has no expiry and no limit unless given', () => {
    const t = linkTerms({ amount: usd(500), reusable: true } as CreatePaymentLinkRequest, NOW);
    expect({ expiresAt: t.expiresAt, maxUses: t.maxUses }).toEqual({ expiresAt: null, maxUses: null });
    expect(linkTerms({ amount: usd(5), reusable: true, maxUses: 3 } as CreatePaymentLinkRequest, NOW).maxUses).toBe(3);
  });

  it('a subscription link takes its plan and has no amount', () => {
    const t = linkTerms({ type: 'subscription', subscriptionPlanId: 7 } as CreatePaymentLinkRequest, NOW, PLAN);
    expect(t).toMatchObject({ type: 'subscription', currency: null, amountValue: null, subscriptionPlanId: 7 });
    expect(t.plan).toEqual({
      name: 'Basic',
      amount: { currency: 'EUR', value: 990, exponent: 2 },
      interval: 'month',
      intervalCount: 1,
    });
  });

  it.each([
    [{}, 'VALIDATION_FAILED', 'amount'],
    [{ amount: usd() }, 'VALIDATION_FAILED', 'amount.value'],
    [{ amount: { currency: 'USD', value: 1, exponent: 3 } }, 'INVALID_EXPONENT', 'amount.exponent'],
    [{ amount: usd(5), maxUses: 2 }, 'VALIDATION_FAILED', 'maxUses'],
    [{ amount: usd(5), amountMin: 1 }, 'VALIDATION_FAILED', 'amountMin'],
    [{ amount: usd(5), expiresAt: NOW.toISOString() }, 'VALIDATION_FAILED', 'expiresAt'],
    [{ amountMode: 'customer_entered', amount: usd(), amountMin: 5 }, 'VALIDATION_FAILED', 'amountMax'],
    [
      { amountMode: 'customer_entered', amount: usd(3), amountMin: 1, amountMax: 5 },
      'VALIDATION_FAILED',
      'amount.value',
    ],
    [{ type: 'subscription' }, 'VALIDATION_FAILED', 'subscriptionPlanId'],
    [{ type: 'subscription', subscriptionPlanId: 7, amount: usd(1) }, 'VALIDATION_FAILED', 'amount'],
    [{ amount: usd(5), subscriptionPlanId: 7 }, 'VALIDATION_FAILED', 'subscriptionPlanId'],
  ])('refuses %j with %s naming %s', (request, code, param) => {
    expect(refusal(() => linkTerms(request as CreatePaymentLinkRequest, NOW, PLAN))).toEqual({ code, param });
  });

  it('customer_entered bounds: accepted exactly when min ≤ max', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 1, max: 10 ** 9 }), (min, max) => {
        const request = { amountMode: 'customer_entered', amount: usd(), amountMin: min, amountMax: max };
        const run = () => linkTerms(request as CreatePaymentLinkRequest, NOW);
        if (min <= max) expect(run()).toMatchObject({ amountMin: min, amountMax: max, amountValue: null });
        else expect(refusal(run).param).toBe('amountMin');
      }),
    );
  });

  it('a plan that is inactive or archived takes no new subscribers', () => {
    expect(() => assertPlanOpen(PLAN)).not.toThrow();
    expect(refusal(() => assertPlanOpen({ ...PLAN, isActive: false })).code).toBe('INVALID_STATE');
    expect(refusal(() => assertPlanOpen({ ...PLAN, archivedAt: NOW.toISOString() })).code).toBe('INVALID_STATE');
  });
});
