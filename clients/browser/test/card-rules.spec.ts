import {
  brandOf,
  cvcState,
  expiryState,
  formatExpiry,
  formatNumber,
  luhn,
  MESSAGES,
  numberState,
  parseExpiry,
} from '../src/card-rules';
import { safeStyle } from '../src/field-style';

const TODAY = { year: 2026, month: 11 };

describe('card field rules (the browser code of the card fields)', () => {
  it('detects the brand from the number’s prefix', () => {
    const cases: [string, string][] = [
      ['4111', 'visa'],
      ['5555', 'mastercard'],
      ['2221', 'mastercard'],
      ['2720', 'mastercard'],
      ['2721', 'unknown'],
      ['3782', 'amex'],
      ['3056', 'diners'],
      ['3530', 'jcb'],
      ['6011', 'discover'],
      ['6200', 'unionpay'],
      ['9999', 'unknown'],
      ['', 'unknown'],
    ];
    for (const [digits, brand] of cases) expect([digits, brandOf(digits)]).toEqual([digits, brand]);
  });

  it('checks Luhn', () => {
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
    expect(luhn('378282246310005')).toBe(true);
  });

  it('groups digits as the brand prints them and cuts at its longest length', () => {
    expect(formatNumber('4111-1111 1111 1111')).toBe('4111 1111 1111 1111');
    expect(formatNumber('378282246310005999')).toBe('3782 822463 10005');
    expect(formatNumber('41')).toBe('41');
  });

  it('says whether a number is empty, incomplete, invalid or complete', () => {
    expect(numberState('')).toMatchObject({ empty: true, complete: false });
    expect(numberState('4111 1111')).toMatchObject({ valid: false, error: MESSAGES.numberIncomplete });
    expect(numberState('4111 1111 1111 1112')).toMatchObject({ valid: false, error: MESSAGES.numberInvalid });
    expect(numberState('4111 1111 1111 1111')).toEqual({ empty: false, complete: true, valid: true });
    expect(numberState('3782 822463 10005')).toEqual({ empty: false, complete: true, valid: true });
  });

  it('formats an expiry typed, pasted or autofilled, and the slash never traps a backspace', () => {
    expect(formatExpiry('1228')).toBe('12 / 28');
    expect(formatExpiry('12/2028')).toBe('12 / 28');
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('12 / ')).toBe('12');
    expect(parseExpiry('12 / 28')).toEqual({ month: '12', year: '2028' });
  });

  it('refuses a bad month, a past expiry and one too far ahead; the current month is valid', () => {
    expect(expiryState('13 / 28', TODAY)).toMatchObject({ valid: false, error: MESSAGES.expiryMonthInvalid });
    expect(expiryState('10 / 26', TODAY)).toMatchObject({ valid: false, error: MESSAGES.expiryPast });
    expect(expiryState('11 / 26', TODAY)).toEqual({ empty: false, complete: true, valid: true });
    expect(expiryState('01 / 99', TODAY)).toMatchObject({ valid: false, error: MESSAGES.expiryYearInvalid });
    expect(expiryState('1', TODAY)).toMatchObject({ valid: false, error: MESSAGES.expiryIncomplete });
  });

  it('asks for four CVC digits on American Express and three on the others', () => {
    expect(cvcState('1234', 'amex').valid).toBe(true);
    expect(cvcState('123', 'amex')).toMatchObject({ valid: false, error: MESSAGES.cvcIncomplete });
    expect(cvcState('123', 'visa').valid).toBe(true);
    expect(cvcState('1234', 'visa').valid).toBe(false);
    expect(cvcState('1234', 'unknown').valid).toBe(true);
  });

  it('takes styles as values of their own kind only', () => {
    expect(
      safeStyle({
        color: '#c2185b',
        fontFamily: 'Georgia, "Times New Roman", serif',
        fontSize: '18px',
        fontWeight: 'bold',
        lineHeight: '1.5',
        background: 'red',
        textAlign: 'center',
      }),
    ).toEqual({
      color: '#c2185b',
      'font-family': 'Georgia, "Times New Roman", serif',
      'font-size': '18px',
      'font-weight': 'bold',
      'line-height': '1.5',
      'text-align': 'center',
    });
    const hostile = {
      color: 'red; background: url(https://evil.example)',
      fontFamily: 'x}body{display:none',
      fontSize: 'expression(alert(1))',
      letterSpacing: 'calc(1px)',
      __proto__: { color: 'blue' },
    };
    expect(safeStyle(hostile)).toEqual({});
    expect(safeStyle('color:red')).toEqual({});
    expect(safeStyle({ color: 'rgb(0, 80, 40)' })).toEqual({ color: 'rgb(0, 80, 40)' });
  });
});
