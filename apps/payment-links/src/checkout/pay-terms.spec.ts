import fc from 'fast-check';
import { PayLinkRequest } from '@app/contracts';
import { DomainError } from '@app/errors';
import { PaymentLinkEntity } from '../link/payment-link.entity';
import { amountToPay, subscriberOf } from './pay-terms';

const link = (o: Partial<PaymentLinkEntity>): PaymentLinkEntity =>
  Object.assign(new PaymentLinkEntity(), {
    type: 'one-time',
    amountMode: 'fixed',
    currency: 'USD',
    exponent: 2,
    amountValue: 2500,
    amountMin: null,
    amountMax: null,
    customerEmail: null,
    customerName: null,
    ...o,
  });
const entered = link({ amountMode: 'customer_entered', amountValue: null, amountMin: 500, amountMax: 10000 });
const pay = (o: Partial<PayLinkRequest>): PayLinkRequest => ({ nonce: 'n', ...o });

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as DomainError).code;
  }
};

describe('what a payer pays through a link', () => {
  it('a fixed link charges its amount; a sent amount must be exactly it', () => {
    expect(amountToPay(link({}), pay({}))).toBe(2500);
    expect(amountToPay(link({}), pay({ amount: { currency: 'USD', value: 2500, exponent: 2 } }))).toBe(2500);
    expect(codeOf(() => amountToPay(link({}), pay({ amount: { currency: 'USD', value: 1, exponent: 2 } })))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('customer_entered: inside the bounds exactly, in the link currency and exponent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20000 }), (value) => {
        const f = () => amountToPay(entered, pay({ amount: { currency: 'USD', value, exponent: 2 } }));
        if (value >= 500 && value <= 10000) expect(f()).toBe(value);
        else expect(codeOf(f)).toBe('VALIDATION_FAILED');
      }),
    );
    expect(codeOf(() => amountToPay(entered, pay({})))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => amountToPay(entered, pay({ amount: { currency: 'EUR', value: 600, exponent: 2 } })))).toBe(
      'CURRENCY_MISMATCH',
    );
    expect(codeOf(() => amountToPay(entered, pay({ amount: { currency: 'USD', value: 600, exponent: 0 } })))).toBe(
      'INVALID_EXPONENT',
    );
  });

  it('a subscription link charges its plan, and needs an email from the payer or the link', () => {
    const sub = link({ type: 'subscription', currency: null, exponent: null, amountValue: null });
    expect(amountToPay(sub, pay({}))).toBeNull();
    expect(codeOf(() => subscriberOf(sub, pay({})))).toBe('VALIDATION_FAILED');
    expect(subscriberOf({ ...sub, customerEmail: 'a@b.co' } as PaymentLinkEntity, pay({}))).toEqual({
      email: 'a@b.co',
    });
    expect(subscriberOf(sub, pay({ customerEmail: 'x@y.co', customerName: 'X' }))).toEqual({
      email: 'x@y.co',
      name: 'X',
    });
  });
});
