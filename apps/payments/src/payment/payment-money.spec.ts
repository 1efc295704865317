import fc from 'fast-check';
import { DomainError } from '@app/errors';
import {
  decideCancel,
  decideCancelOrRefund,
  decideCapture,
  decideHoldExpiry,
  decideRefund,
  Decision,
  PaymentSnapshot,
} from './payment-money';

const NOW = new Date('2030-01-10T00:00:00Z');
const usd = (value: number) => ({ currency: 'USD', value, exponent: 2 });

const authorized = (value = 1000, o: Partial<PaymentSnapshot> = {}): PaymentSnapshot => ({
  status: 'authorized',
  currency: 'USD',
  exponent: 2,
  amountValue: value,
  amountCaptured: 0,
  amountRefunded: 0,
  holdExpiresAt: new Date('2030-01-17T00:00:00Z'),
  cancelReason: null,
  ...o,
});

const apply = (p: PaymentSnapshot, d: Decision): PaymentSnapshot => ({
  ...p,
  status: d.to,
  amountCaptured: d.amountCaptured,
  amountRefunded: d.amountRefunded,
  holdExpiresAt: d.to === 'authorized' ? p.holdExpiresAt : null,
  cancelReason: d.trigger === 'cancel' ? 'merchant' : d.trigger === 'expire_hold' ? 'hold_expired' : p.cancelReason,
});

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.code : 'OTHER';
  }
  return undefined;
};

describe('money rules of payment operations', () => {
  it('captures once, in part, and releases the rest', () => {
    const d = decideCapture(authorized(1000), usd(400), NOW);
    expect(d).toMatchObject({ to: 'captured', amountCaptured: 400, result: 'captured', amount: usd(400) });
    expect(codeOf(() => decideCapture(apply(authorized(1000), d), usd(100), NOW))).toBe('INVALID_STATE');
  });

  it('checks the state before the amount, the currency before the value', () => {
    const captured = apply(authorized(1000), decideCapture(authorized(1000), usd(1000), NOW));
    expect(codeOf(() => decideCapture(captured, usd(999_999), NOW))).toBe('INVALID_STATE');
    expect(codeOf(() => decideCapture(authorized(), usd(1001), NOW))).toBe('AMOUNT_EXCEEDS_AVAILABLE');
    expect(codeOf(() => decideCapture(authorized(), { currency: 'EUR', value: 5, exponent: 2 }, NOW))).toBe(
      'CURRENCY_MISMATCH',
    );
    expect(codeOf(() => decideCapture(authorized(), { currency: 'USD', value: 5, exponent: 3 }, NOW))).toBe(
      'INVALID_EXPONENT',
    );
    expect(codeOf(() => decideRefund(authorized(), usd(5)))).toBe('INVALID_STATE');
  });

  it('refuses a capture or refund of 0 with 400', () => {
    expect(codeOf(() => decideCapture(authorized(), usd(0), NOW))).toBe('VALIDATION_FAILED');
    const captured = apply(authorized(), decideCapture(authorized(), usd(1000), NOW));
    expect(codeOf(() => decideRefund(captured, usd(0)))).toBe('VALIDATION_FAILED');
  });

  it('never captures a zero-value verification', () => {
    expect(codeOf(() => decideCapture(authorized(0, { holdExpiresAt: null }), usd(1), NOW))).toBe('INVALID_STATE');
  });

  it('answers AUTHORIZATION_EXPIRED after the hold, swept or not', () => {
    const due = authorized(1000, { holdExpiresAt: NOW });
    expect(codeOf(() => decideCapture(due, usd(10), NOW))).toBe('AUTHORIZATION_EXPIRED');
    const swept = apply(due, decideHoldExpiry(due, NOW));
    expect(swept).toMatchObject({ status: 'cancelled', cancelReason: 'hold_expired' });
    expect(codeOf(() => decideCapture(swept, usd(10), NOW))).toBe('AUTHORIZATION_EXPIRED');
    expect(codeOf(() => decideHoldExpiry(authorized(), NOW))).toBe('INVALID_STATE');
  });

  it('keeps a partial refund captured and ends refunded at the captured value', () => {
    let p = apply(authorized(1000), decideCapture(authorized(1000), usd(600), NOW));
    const first = decideRefund(p, usd(200));
    expect(first).toMatchObject({ to: 'captured', event: 'payment.refunded', result: 'refunded' });
    p = apply(p, first);
    expect(codeOf(() => decideRefund(p, usd(401)))).toBe('AMOUNT_EXCEEDS_AVAILABLE');
    const last = decideRefund(p, usd(400));
    expect(last).toMatchObject({ to: 'refunded', amountRefunded: 600 });
  });

  it('cancels only an authorization, whole', () => {
    expect(decideCancel(authorized(1000))).toMatchObject({ to: 'cancelled', amount: usd(1000), result: 'cancelled' });
    expect(codeOf(() => decideCancel(authorized(1000), usd(10)))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => decideCancel(authorized(1000), { currency: 'EUR', value: 1000, exponent: 2 }))).toBe(
      'CURRENCY_MISMATCH',
    );
    const captured = apply(authorized(), decideCapture(authorized(), usd(1000), NOW));
    expect(codeOf(() => decideCancel(captured))).toBe('INVALID_STATE');
  });

  it('cancel_or_refund voids a hold or refunds what is left', () => {
    expect(decideCancelOrRefund(authorized(700))).toMatchObject({ to: 'cancelled', amount: usd(700) });
    let p = apply(authorized(1000), decideCapture(authorized(1000), usd(1000), NOW));
    p = apply(p, decideRefund(p, usd(300)));
    expect(decideCancelOrRefund(p)).toMatchObject({ to: 'refunded', amount: usd(700), amountRefunded: 1000 });
    expect(codeOf(() => decideCancelOrRefund(apply(p, decideCancelOrRefund(p))))).toBe('INVALID_STATE');
  });

  describe('property: no sequence of operations breaks the money invariants', () => {
    type Op =
      | { kind: 'capture'; value: number }
      | { kind: 'refund'; value: number }
      | { kind: 'cancel' }
      | { kind: 'cancel_or_refund' }
      | { kind: 'expire' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('capture' as const), value: fc.integer({ min: 0, max: 1500 }) }),
      fc.record({ kind: fc.constant('refund' as const), value: fc.integer({ min: 0, max: 1500 }) }),
      fc.constant({ kind: 'cancel' as const }),
      fc.constant({ kind: 'cancel_or_refund' as const }),
      fc.constant({ kind: 'expire' as const }),
    );

    const decide = (p: PaymentSnapshot, o: Op): Decision => {
      switch (o.kind) {
        case 'capture':
          return decideCapture(p, usd(o.value), NOW);
        case 'refund':
          return decideRefund(p, usd(o.value));
        case 'cancel':
          return decideCancel(p);
        case 'cancel_or_refund':
          return decideCancelOrRefund(p);
        case 'expire':
          return decideHoldExpiry({ ...p, holdExpiresAt: p.holdExpiresAt && NOW }, NOW);
      }
    };

    it('refunded ≤ captured ≤ authorized, one capture at most, and errors change nothing', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 1200 }), fc.array(op, { maxLength: 25 }), (value, ops) => {
          let p = authorized(value);
          let captures = 0;
          for (const o of ops) {
            let d: Decision;
            try {
              d = decide(p, o);
            } catch (e) {
              expect(e).toBeInstanceOf(DomainError);
              continue;
            }
            if (d.kind === 'capture') captures++;
            if (d.kind === 'refund') expect(d.amount.value).toBeGreaterThan(0);
            p = apply(p, d);
            expect(p.amountCaptured).toBeLessThanOrEqual(p.amountValue);
            expect(p.amountRefunded).toBeLessThanOrEqual(p.amountCaptured);
            expect(p.amountRefunded).toBeGreaterThanOrEqual(0);
            expect(captures).toBeLessThanOrEqual(1);
            if (p.status === 'refunded') expect(p.amountRefunded).toBe(p.amountCaptured);
            if (p.status === 'captured') expect(p.amountRefunded).toBeLessThan(p.amountCaptured);
            if (p.status === 'cancelled') expect(p.amountCaptured).toBe(0);
          }
        }),
        { numRuns: 500 },
      );
    });
  });
});
