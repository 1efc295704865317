import { LookupAddress } from 'node:dns';
import { isPublicAddress, pinnedLookup, resolveTarget, TargetRefused } from './target-guard';

const resolver = (addresses: string[]) => async (): Promise<LookupAddress[]> =>
  addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('webhook target guard', () => {
  it.each([
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.1',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '198.18.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '64:ff9b::a00:1',
    'not-an-ip',
    // IPv6 forms that carry a private or loopback IPv4 address are judged by that address.
    '::7f00:1', // IPv4-compatible 127.0.0.1
    '::127.0.0.1',
    '::a00:1', // IPv4-compatible 10.0.0.1
    '::ffff:a9fe:a9fe', // IPv4-mapped 169.254.169.254, hex form
    '64:ff9b::7f00:1', // NAT64 127.0.0.1
    '64:ff9b::169.254.169.254',
    '64:ff9b:1::a00:1', // local-use NAT64
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:c0a8:101::1', // 6to4 of 192.168.1.1
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1
    '2001:0:a00:1:8000:63bf:3fff:fdd2', // Teredo via server 10.0.0.1
  ])('%s is not a public address', (a) => expect(isPublicAddress(a)).toBe(false));

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '::808:808', // IPv4-compatible 8.8.8.8
    '64:ff9b::808:808', // NAT64 8.8.8.8
    '2002:808:808::1', // 6to4 of 8.8.8.8
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo: server 65.54.227.120, client 8.8.8.8
  ])('%s is public', (a) => expect(isPublicAddress(a)).toBe(true));

  it('refuses http and malformed URLs for good (permanent)', async () => {
    for (const url of ['http://93.184.216.34/', 'ftp://x.example/', 'nope', '']) {
      const e = await resolveTarget(url, { allowPrivate: true, requireResolution: false }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TargetRefused);
      expect((e as TargetRefused).permanent).toBe(true);
    }
  });

  it('refuses a host name when any of its addresses is private, unless private targets are allowed', async () => {
    const mixed = resolver(['93.184.216.34', '10.0.0.7']);
    await expect(
      resolveTarget('https://hooks.example.com/x', { allowPrivate: false, requireResolution: true, resolver: mixed }),
    ).rejects.toThrow(/^url resolves to a private, loopback or reserved address$/);
    const ok = await resolveTarget('https://hooks.example.com/x', {
      allowPrivate: true,
      requireResolution: true,
      resolver: mixed,
    });
    expect(ok.addresses.map((a) => a.address)).toEqual(['93.184.216.34', '10.0.0.7']);
  });

  it('at registration an unresolvable host is accepted (checked again at delivery); at delivery it fails', async () => {
    const failing = async (): Promise<LookupAddress[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND via 10.9.8.7'), { code: 'ENOTFOUND' });
    };
    const reg = await resolveTarget('https://nowhere.example/x', {
      allowPrivate: false,
      requireResolution: false,
      resolver: failing,
    });
    expect(reg.addresses).toEqual([]);
    const e = await resolveTarget('https://nowhere.example/x', {
      allowPrivate: false,
      requireResolution: true,
      resolver: failing,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TargetRefused);
    expect((e as TargetRefused).permanent).toBe(false);
    // The resolver's code, never its message (which could name an internal address).
    expect((e as TargetRefused).message).toBe('cannot resolve nowhere.example: ENOTFOUND');
  });

  it('pins the connection to the checked addresses whatever DNS answers later (no rebinding)', () => {
    const lookup = pinnedLookup([{ address: '93.184.216.34', family: 4 }]);
    const one = jest.fn();
    lookup('hooks.example.com', { all: false }, one);
    expect(one).toHaveBeenCalledWith(null, '93.184.216.34', 4);
    const all = jest.fn();
    lookup('hooks.example.com', { all: true }, all);
    expect(all).toHaveBeenCalledWith(null, [{ address: '93.184.216.34', family: 4 }]);
  });
});
