/**
 * What a card field knows about card numbers, expiry dates and security codes: brand detection from the
 * number's prefix, each brand's lengths, digit groups and security-code length, the Luhn check, and the
 * messages a payer reads. Pure functions (no DOM), shared by the field frames and unit-tested on their own.
 */

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

interface BrandRule {
  brand: CardBrand;
  /** Does a number starting with these digits belong to the brand? */
  matches(digits: string): boolean;
  lengths: number[];
  /** Positions after which a space is shown: 4242 4242 4242 4242, 3782 822463 10005. */
  gaps: number[];
  cvcLength: number;
}

const prefix4 = (digits: string): number => Number(digits.slice(0, 4));

const BRANDS: BrandRule[] = [
  { brand: 'amex', matches: (d) => /^3[47]/.test(d), lengths: [15], gaps: [4, 10], cvcLength: 4 },
  { brand: 'diners', matches: (d) => /^3(0[0-5]|[689])/.test(d), lengths: [14, 16, 19], gaps: [4, 10], cvcLength: 3 },
  {
    brand: 'jcb',
    matches: (d) => /^35(2[89]|[3-8])/.test(d),
    lengths: [16, 17, 18, 19],
    gaps: [4, 8, 12],
    cvcLength: 3,
  },
  { brand: 'visa', matches: (d) => /^4/.test(d), lengths: [13, 16, 19], gaps: [4, 8, 12], cvcLength: 3 },
  {
    brand: 'mastercard',
    matches: (d) => /^5[1-5]/.test(d) || (d.length >= 4 && prefix4(d) >= 2221 && prefix4(d) <= 2720),
    lengths: [16],
    gaps: [4, 8, 12],
    cvcLength: 3,
  },
  {
    brand: 'discover',
    matches: (d) => /^(6011|65|64[4-9])/.test(d),
    lengths: [16, 17, 18, 19],
    gaps: [4, 8, 12],
    cvcLength: 3,
  },
  { brand: 'unionpay', matches: (d) => /^62/.test(d), lengths: [16, 17, 18, 19], gaps: [4, 8, 12], cvcLength: 3 },
];

const UNKNOWN: BrandRule = {
  brand: 'unknown',
  matches: () => true,
  lengths: [12, 13, 14, 15, 16, 17, 18, 19],
  gaps: [4, 8, 12],
  cvcLength: 3,
};

export const MESSAGES = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: 'Your card’s expiry date is incomplete.',
  expiryMonthInvalid: 'Your card’s expiry month is invalid.',
  expiryPast: 'Your card’s expiry date is in the past.',
  expiryYearInvalid: 'Your card’s expiry year is invalid.',
  cvcIncomplete: 'Your card’s security code is incomplete.',
  nameMissing: 'Enter the name on the card.',
} as const;

/** The state a field reports to the page on every change: never the value itself. */
export interface FieldState {
  empty: boolean;
  complete: boolean;
  valid: boolean;
  /** Shown once the payer leaves the field, or at once when a complete value is wrong. */
  error?: string;
}

export const digitsOf = (value: string): string => value.replace(/\D/g, '');

function ruleOf(digits: string): BrandRule {
  return BRANDS.find((b) => b.matches(digits)) ?? UNKNOWN;
}

export function brandOf(digits: string): CardBrand {
  return digits ? ruleOf(digits).brand : 'unknown';
}

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

export function maxNumberLength(digits: string): number {
  const lengths = ruleOf(digits).lengths;
  return lengths[lengths.length - 1];
}

/** Digits grouped as the brand prints them, cut at its longest length. */
export function formatNumber(value: string): string {
  const digits = digitsOf(value);
  const rule = ruleOf(digits);
  const cut = digits.slice(0, maxNumberLength(digits));
  let out = '';
  for (let i = 0; i < cut.length; i++) {
    if (rule.gaps.includes(i)) out += ' ';
    out += cut[i];
  }
  return out;
}

export function numberState(value: string): FieldState {
  const digits = digitsOf(value);
  if (!digits) return { empty: true, complete: false, valid: false, error: MESSAGES.numberIncomplete };
  const rule = ruleOf(digits);
  const longest = rule.lengths[rule.lengths.length - 1];
  if (rule.lengths.includes(digits.length) && luhn(digits)) return { empty: false, complete: true, valid: true };
  // A full-length number that fails: longest for its brand, or the usual sixteen digits.
  const full = digits.length >= longest || (digits.length >= 16 && rule.lengths.includes(digits.length));
  if (full) return { empty: false, complete: false, valid: false, error: MESSAGES.numberInvalid };
  return { empty: false, complete: false, valid: false, error: MESSAGES.numberIncomplete };
}

/**
 * "MM / YY" as the payer types, pastes or autofills it ("1228", "12/28", "12/2028"; "4" → "04"). The slash
 * appears with the third digit, so deleting back over it never gets stuck.
 */
export function formatExpiry(value: string): string {
  const slashed = /^\s*(\d{1,2})\s*[/-]\s*(\d{2}|\d{4})\s*$/.exec(value);
  let digits = slashed ? slashed[1].padStart(2, '0') + slashed[2].slice(-2) : digitsOf(value);
  if (/^[2-9]$/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

export interface Expiry {
  month: string;
  year: string;
}

/** The "MM" and four-digit "YYYY" of a formatted expiry, when it has both. */
export function parseExpiry(value: string): Expiry | undefined {
  const m = /^(\d{2}) \/ (\d{2})$/.exec(formatExpiry(value));
  return m ? { month: m[1], year: `20${m[2]}` } : undefined;
}

/** `today` is { year: 2026, month: 11 } (month 1-12). A card is valid through the end of its month. */
export function expiryState(value: string, today: { year: number; month: number }): FieldState {
  const formatted = formatExpiry(value);
  if (!formatted) return { empty: true, complete: false, valid: false, error: MESSAGES.expiryIncomplete };
  const month = Number(formatted.slice(0, 2));
  if (formatted.length >= 2 && (month < 1 || month > 12)) {
    return { empty: false, complete: false, valid: false, error: MESSAGES.expiryMonthInvalid };
  }
  const expiry = parseExpiry(value);
  if (!expiry) return { empty: false, complete: false, valid: false, error: MESSAGES.expiryIncomplete };
  const year = Number(expiry.year);
  if (year < today.year || (year === today.year && month < today.month)) {
    return { empty: false, complete: true, valid: false, error: MESSAGES.expiryPast };
  }
  if (year > today.year + 20) return { empty: false, complete: true, valid: false, error: MESSAGES.expiryYearInvalid };
  return { empty: false, complete: true, valid: true };
}

/** The security code's length for a brand: four digits on American Express, three on the others. */
export function cvcLength(brand: CardBrand): number {
  return (BRANDS.find((b) => b.brand === brand) ?? UNKNOWN).cvcLength;
}

export function cvcState(value: string, brand: CardBrand): FieldState {
  const digits = digitsOf(value);
  if (!digits) return { empty: true, complete: false, valid: false, error: MESSAGES.cvcIncomplete };
  // Before the number names its brand, three or four digits both pass.
  const ok = brand === 'unknown' ? digits.length === 3 || digits.length === 4 : digits.length === cvcLength(brand);
  return ok
    ? { empty: false, complete: true, valid: true }
    : { empty: false, complete: false, valid: false, error: MESSAGES.cvcIncomplete };
}

export function nameState(value: string): FieldState {
  return value.trim()
    ? { empty: false, complete: true, valid: true }
    : { empty: true, complete: false, valid: false, error: MESSAGES.nameMissing };
}
