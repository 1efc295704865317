/** A USD Amount of `value` minor units; without a value, the currency and exponent of a customer-entered amount. */
export function usd(value: number): { currency: 'USD'; value: number; exponent: 2 };
export function usd(): { currency: 'USD'; exponent: 2 };
export function usd(value?: number): { currency: 'USD'; value?: number; exponent: 2 } {
  return { currency: 'USD', ...(value === undefined ? {} : { value }), exponent: 2 };
}
