import { clientAddress } from './client-address';

describe('clientAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['', ''],
    ['not an address', 'not an address'],
  ])('counts %p as %p', (ip, counted) => {
    expect(clientAddress({ ip })).toBe(counted);
  });
});
