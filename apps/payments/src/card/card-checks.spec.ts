import { cardExpired, luhnValid } from './card-checks';

describe('card checks', () => {
  it.each(['4111111111111111', '5500005555555559', '6011111111111117', '4000002500003155', '4000000000003055'])(
    'Luhn accepts %s',
    (n) => expect(luhnValid(n)).toBe(true),
  );

  it.each(['4111111111111112', '1234567890123456', '', '4111-1111'])('Luhn refuses %s', (n) =>
    expect(luhnValid(n)).toBe(false),
  );

  it('a card is valid through its expiry month', () => {
    const now = new Date('2030-06-15T12:00:00Z');
    expect(cardExpired('06', '2030', now)).toBe(false);
    expect(cardExpired('05', '2030', now)).toBe(true);
    expect(cardExpired('12', '2029', now)).toBe(true);
    expect(cardExpired('01', '2031', now)).toBe(false);
  });
});
