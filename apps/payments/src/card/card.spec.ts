import { cardExpired, luhnValid } from './card-checks';
import { DomainError } from '@app/errors';
import { assertUsableCard, cardBrand, cardView, maskCardNumber } from './card';

const NOW = new Date('2030-06-15T00:00:00Z');
const codeOf = (fn: () => unknown): [string, string | undefined] | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? [e.code, e.param] : ['OTHER', undefined];
  }
  return undefined;
};

describe('card rules', () => {
  it.each([
    ['4111111111111111', 'visa'],
    ['5500005555555559', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['374251018720955', 'amex'],
    ['6011111111111117', 'discover'],
    ['3530111333300000', 'jcb'],
  ])('%s is %s and usable', (pan, brand) => {
    expect(cardBrand(pan)).toBe(brand);
    expect(() =>
      assertUsableCard({ cardNumber: pan, expiryMonth: '12', expiryYear: '2031' }, NOW, 'c', 'sandbox'),
    ).not.toThrow();
  });

  it('accepts the two documented test numbers that fail Luhn in the sandbox only, and no other Luhn failure', () => {
    for (const pan of ['374251018720955', '4000000000001341']) {
      expect(luhnValid(pan)).toBe(false);
      expect(() =>
        assertUsableCard({ cardNumber: pan, expiryMonth: '12', expiryYear: '2031' }, NOW, 'c', 'sandbox'),
      ).not.toThrow();
      expect(
        codeOf(() =>
          assertUsableCard({ cardNumber: pan, expiryMonth: '12', expiryYear: '2031' }, NOW, 'c', 'production'),
        ),
      ).toEqual(['VALIDATION_FAILED', 'c.cardNumber']);
    }
    expect(
      codeOf(() =>
        assertUsableCard(
          { cardNumber: '4111111111111112', expiryMonth: '12', expiryYear: '2031' },
          NOW,
          'card.cardData',
          'sandbox',
        ),
      ),
    ).toEqual(['VALIDATION_FAILED', 'card.cardData.cardNumber']);
    expect(
      codeOf(() =>
        assertUsableCard(
          { cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2029' },
          NOW,
          'card.cardData',
          'sandbox',
        ),
      ),
    ).toEqual(['VALIDATION_FAILED', 'card.cardData.expiryYear']);
  });

  it('fails Luhn on a changed digit or non-digits', () => {
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('4111 1111 1111 1111')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });

  it('keeps a card valid through the last day of its expiry month (UTC)', () => {
    expect(cardExpired('03', '2030', new Date('2030-03-31T23:59:59Z'))).toBe(false);
    expect(cardExpired('03', '2030', new Date('2030-04-01T00:00:00Z'))).toBe(true);
    expect(cardExpired('12', '2029', new Date('2030-01-01T00:00:00Z'))).toBe(true);
    expect(cardExpired('01', '2031', new Date('2030-12-31T00:00:00Z'))).toBe(false);
  });

  it('masks first 6, four asterisks, last 4 for every length', () => {
    expect(maskCardNumber('4111111111111111')).toBe('411111****1111');
    expect(maskCardNumber('374251018720955')).toBe('374251****0955');
    expect(maskCardNumber('6011000990139424123')).toBe('601100****4123');
    expect(maskCardNumber('400000000002')).toBe('400000****0002');
  });

  it('never puts the PAN in the response card', () => {
    const view = cardView({
      cardNumber: '4111111111111111',
      brand: 'visa',
      type: 'credit',
      expiryMonth: '12',
      expiryYear: '2030',
    });
    expect(JSON.stringify(view)).not.toContain('4111111111111111');
    expect(view).toEqual({
      cardData: { brand: 'visa', cardNumber: '411111****1111', type: 'credit', expiryMonth: '12', expiryYear: '2030' },
      networkTransactionId: null,
      networkReferenceId: null,
    });
  });
});
