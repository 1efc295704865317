import { escapeHtml, formatAmount, formatMoney } from './html';

describe('hosted page helpers', () => {
  it('formats minor units without floating point', () => {
    expect(formatAmount({ currency: 'USD', value: 1050, exponent: 2 })).toBe('10.50 USD');
    expect(formatAmount({ currency: 'USD', value: 7, exponent: 2 })).toBe('0.07 USD');
    expect(formatAmount({ currency: 'JPY', value: 500, exponent: 0 })).toBe('500 JPY');
    expect(formatAmount({ currency: 'BHD', value: 9007199254740991, exponent: 3 })).toBe('9007199254740.991 BHD');
  });

  it('formats money for payers from the exact decimal string', () => {
    expect(formatMoney({ currency: 'USD', value: 1050, exponent: 2 })).toBe('$10.50');
    expect(formatMoney({ currency: 'JPY', value: 500, exponent: 0 })).toBe('¥500');
    expect(formatMoney({ currency: 'BHD', value: 9007199254740991, exponent: 3 })).toBe(
      'BHD\u00a09,007,199,254,740.991',
    );
  });

  it('escapes what a merchant code or status could smuggle into the page', () => {
    expect(escapeHtml(`<script>"x" & 'y'</script>`)).toBe(
      '&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;',
    );
  });
});
