import * as cc from 'currency-codes';
import { DomainError } from '@app/errors';

/** ISO 4217 minor-unit exponent of a currency (from the maintained `currency-codes` data), or undefined. */
export function currencyExponent(currency: string): number | undefined {
  const entry = cc.code(currency);
  return entry && Number.isInteger(entry.digits) ? entry.digits : undefined;
}

export function isCurrency(currency: unknown): currency is string {
  return typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) && currencyExponent(currency) !== undefined;
}

export function assertCurrency(currency: string, param = 'amount.currency'): number {
  const exponent = isCurrency(currency) ? currencyExponent(currency) : undefined;
  if (exponent === undefined) throw DomainError.validation(`${param} must be an ISO 4217 currency code`, param);
  return exponent;
}
