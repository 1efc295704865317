import { DomainError } from '@app/errors';
import { Amount } from './amount';
import { currencyExponent } from './currency';

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.code : 'OTHER';
  }
  return undefined;
};

describe('Amount', () => {
  it('takes ISO 4217 exponents from the currency data', () => {
    expect(currencyExponent('USD')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('BHD')).toBe(3);
    expect(currencyExponent('XXX1')).toBeUndefined();
  });

  it('rejects a wrong exponent with INVALID_EXPONENT', () => {
    expect(code(() => Amount.of({ currency: 'JPY', value: 100, exponent: 2 }))).toBe('INVALID_EXPONENT');
    expect(code(() => Amount.of({ currency: 'USD', value: 100, exponent: 0 }))).toBe('INVALID_EXPONENT');
    expect(Amount.of({ currency: 'JPY', value: 100, exponent: 0 }).value).toBe(100);
  });

  it('rejects unknown currencies, floats, negatives and unsafe integers', () => {
    expect(code(() => Amount.of({ currency: 'ZZZ', value: 1, exponent: 2 }))).toBe('VALIDATION_FAILED');
    expect(code(() => Amount.of({ currency: 'usd', value: 1, exponent: 2 }))).toBe('VALIDATION_FAILED');
    expect(code(() => Amount.of({ currency: 'USD', value: 1.5, exponent: 2 }))).toBe('VALIDATION_FAILED');
    expect(code(() => Amount.of({ currency: 'USD', value: -1, exponent: 2 }))).toBe('VALIDATION_FAILED');
    expect(code(() => Amount.of({ currency: 'USD', value: 2 ** 53, exponent: 2 }))).toBe('VALIDATION_FAILED');
  });

  it('does arithmetic in one currency only', () => {
    const a = Amount.of({ currency: 'EUR', value: 1050, exponent: 2 });
    const b = Amount.of({ currency: 'EUR', value: 50, exponent: 2 });
    expect(a.plus(b).value).toBe(1100);
    expect(a.minus(b).value).toBe(1000);
    expect(a.greaterThan(b)).toBe(true);
    const usd = Amount.of({ currency: 'USD', value: 50, exponent: 2 });
    expect(code(() => a.plus(usd))).toBe('CURRENCY_MISMATCH');
  });

  it('formats decimals for display without floats', () => {
    expect(Amount.of({ currency: 'USD', value: 1999, exponent: 2 }).toDecimalString()).toBe('19.99');
    expect(Amount.of({ currency: 'USD', value: 5, exponent: 2 }).toDecimalString()).toBe('0.05');
    expect(Amount.of({ currency: 'BHD', value: 1, exponent: 3 }).toDecimalString()).toBe('0.001');
    expect(Amount.of({ currency: 'JPY', value: 500, exponent: 0 }).toDecimalString()).toBe('500');
  });
});
