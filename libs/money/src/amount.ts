import { DomainError } from '@app/errors';
import { assertCurrency } from './currency';

export interface AmountJson {
  currency: string;
  value: number;
  exponent: number;
}

/**
 * Money as integer minor units with its ISO 4217 currency and exponent. Never a float: `value` is a safe
 * integer, arithmetic refuses to mix currencies, and the exponent must be the currency's.
 */
export class Amount {
  private constructor(
    readonly currency: string,
    readonly value: number,
    readonly exponent: number,
  ) {}

  /** Validates the currency, the exponent against ISO 4217 (422 INVALID_EXPONENT) and the value. */
  static of(input: AmountJson, param = 'amount'): Amount {
    const isoExponent = assertCurrency(input.currency, `${param}.currency`);
    if (!Number.isSafeInteger(input.value) || input.value < 0) {
      throw DomainError.validation(`${param}.value must be a non-negative integer of minor units`, `${param}.value`);
    }
    if (input.exponent !== isoExponent) {
      throw new DomainError(
        'INVALID_EXPONENT',
        `${input.currency} has exponent ${isoExponent}, got ${input.exponent}`,
        `${param}.exponent`,
      );
    }
    return new Amount(input.currency, input.value, input.exponent);
  }

  static zero(currency: string): Amount {
    return new Amount(currency, 0, assertCurrency(currency));
  }

  get isZero(): boolean {
    return this.value === 0;
  }

  sameCurrency(other: Amount): boolean {
    return this.currency === other.currency && this.exponent === other.exponent;
  }

  /** 422 CURRENCY_MISMATCH unless `other` is in this amount's currency. */
  assertSameCurrency(other: Amount, param = 'amount.currency'): void {
    if (this.currency !== other.currency) {
      throw new DomainError('CURRENCY_MISMATCH', `Expected ${this.currency}, got ${other.currency}`, param);
    }
  }

  plus(other: Amount): Amount {
    this.assertSameCurrency(other);
    const value = this.value + other.value;
    if (!Number.isSafeInteger(value)) throw DomainError.validation('Amount overflow', 'amount.value');
    return new Amount(this.currency, value, this.exponent);
  }

  minus(other: Amount): Amount {
    this.assertSameCurrency(other);
    return new Amount(this.currency, this.value - other.value, this.exponent);
  }

  compare(other: Amount): -1 | 0 | 1 {
    this.assertSameCurrency(other);
    return this.value < other.value ? -1 : this.value > other.value ? 1 : 0;
  }

  greaterThan(other: Amount): boolean {
    return this.compare(other) > 0;
  }

  withValue(value: number): Amount {
    return Amount.of({ currency: this.currency, value, exponent: this.exponent });
  }

  /** Decimal string for display only ("19.99"); never parsed back into money. */
  toDecimalString(): string {
    if (this.exponent === 0) return String(this.value);
    const s = String(this.value).padStart(this.exponent + 1, '0');
    return `${s.slice(0, -this.exponent)}.${s.slice(-this.exponent)}`;
  }

  toJSON(): AmountJson {
    return { currency: this.currency, value: this.value, exponent: this.exponent };
  }
}
