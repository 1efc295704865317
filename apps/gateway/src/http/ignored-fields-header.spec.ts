import fc from 'fast-check';
import {
  encodeFieldName,
  IGNORED_FIELDS_MAX_CHARS,
  IGNORED_FIELDS_MAX_NAMES,
  ignoredFieldsHeader,
  isValidFieldValue,
  parseIgnoredFieldsHeader,
} from './ignored-fields-header';

const hostile = fc.constantFrom('a\nb', 'x\r\ny: z', '"quoted"', 'a,b', ', ', "😀 :@' -}%/", '\u0000', '...(+3)', '');
const name = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string(), hostile);

describe('the X-Ignored-Fields header value', () => {
  it('is a valid header value of printable ASCII for any names', () => {
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 60 }), (names) => {
        const value = ignoredFieldsHeader(names)!;
        expect(isValidFieldValue(value)).toBe(true);
        expect(value).toMatch(/^[\x20-\x7e]*$/);
        const { names: listed, omitted } = parseIgnoredFieldsHeader(value);
        expect(listed.length + omitted).toBe(new Set(names).size);
        expect(value.length).toBeLessThanOrEqual(IGNORED_FIELDS_MAX_CHARS);
      }),
    );
  });

  it('decodes back to the names when under the caps', () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 8 }), (names) => {
        fc.pre(names.map(encodeFieldName).join(', ').length <= IGNORED_FIELDS_MAX_CHARS);
        expect(parseIgnoredFieldsHeader(ignoredFieldsHeader(names)!)).toEqual({ names, omitted: 0 });
      }),
    );
  });

  it('keeps plain paths readable', () => {
    expect(ignoredFieldsHeader(['browserInfo', 'card.wallet', 'stops[1].floor', 'browserInfo'])).toBe(
      'browserInfo, card.wallet, stops[1].floor',
    );
    expect(ignoredFieldsHeader(['a b', 'é,"'])).toBe('a%20b, %C3%A9%2C%22');
    expect(ignoredFieldsHeader([])).toBeUndefined();
  });

  it('lists at most 20 names and 1 KiB, then counts the rest', () => {
    const many = Array.from({ length: 3000 }, (_, i) => `k${i}`);
    const value = ignoredFieldsHeader(many)!;
    expect(value.endsWith(', ...(+2980)')).toBe(true);
    expect(parseIgnoredFieldsHeader(value)).toEqual({ names: many.slice(0, IGNORED_FIELDS_MAX_NAMES), omitted: 2980 });

    const long = 'x'.repeat(10_000);
    expect(ignoredFieldsHeader([long, 'short'])).toBe('short, ...(+1)');
    expect(ignoredFieldsHeader([long])).toBe('...(+1)');
    const wide = Array.from({ length: 15 }, (_, i) => `${i}`.padEnd(100, 'y'));
    const capped = ignoredFieldsHeader(wide)!;
    expect(capped.length).toBeLessThanOrEqual(IGNORED_FIELDS_MAX_CHARS);
    expect(parseIgnoredFieldsHeader(capped)).toEqual({ names: wide.slice(0, 9), omitted: 6 });
    expect(ignoredFieldsHeader(wide.slice(0, 10))!.length).toBe(1018);
  });
});
