import { DomainError } from '@app/errors';
import { resolveCaller } from './caller.decorator';
import { KeyCache, UnknownKeyCache } from './key-cache';
import { Principal } from './principal';

const key = (codes: string[]): Principal => ({
  keyId: 'k1',
  type: 'private',
  environment: 'sandbox',
  merchantCodes: codes,
});
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return (e as DomainError).code;
  }
};

describe('resolveCaller', () => {
  it('implies the merchant of a single-merchant key', () => {
    expect(resolveCaller(key(['a']), 'r1', undefined)).toEqual({
      requestId: 'r1',
      environment: 'sandbox',
      merchantCode: 'a',
      keyId: 'k1',
    });
  });
  it('requires merchantCode for a multi-merchant key and checks it belongs to the key', () => {
    expect(codeOf(() => resolveCaller(key(['a', 'b']), 'r', undefined))).toBe('MERCHANT_CODE_REQUIRED');
    expect(resolveCaller(key(['a', 'b']), 'r', 'b').merchantCode).toBe('b');
    expect(codeOf(() => resolveCaller(key(['a', 'b']), 'r', 'c'))).toBe('MERCHANT_MISMATCH');
    expect(codeOf(() => resolveCaller(key(['a']), 'r', 'c'))).toBe('MERCHANT_MISMATCH');
    expect(codeOf(() => resolveCaller(key(['a']), 'r', 7))).toBe('VALIDATION_FAILED');
  });
  it('refuses a merchantCode over its limit as a validation failure, before the merchant check', () => {
    expect(codeOf(() => resolveCaller(key(['a']), 'r', 'x'.repeat(65)))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => resolveCaller(key(['a']), 'r', 'x'.repeat(64)))).toBe('MERCHANT_MISMATCH');
  });
  it('carries the integer merchantId of the merchant it resolved', () => {
    const principal = { ...key(['a', 'b']), merchantIds: { a: 1, b: 2 } };
    expect(resolveCaller(principal, 'r', 'b')).toMatchObject({ merchantCode: 'b', merchantId: 2 });
  });
  it('takes an empty merchantCode as absent, and names the key’s merchants when it must be sent', () => {
    expect(resolveCaller(key(['a']), 'r', '').merchantCode).toBe('a');
    expect(() => resolveCaller(key(['b', 'a']), 'r', '')).toThrow(
      'This key belongs to several merchants (a, b): send merchantCode (in the body, or in the query string on GET)',
    );
  });
});

describe('KeyCache', () => {
  const p = key(['a']);
  it('expires entries after the TTL and evicts by key id', () => {
    const cache = new KeyCache(5000);
    cache.set('h', p, 0);
    expect(cache.get('h', 4999)).toBe(p);
    expect(cache.get('h', 5000)).toBeUndefined();
    cache.set('h', p, 0);
    cache.evictKey('k1');
    expect(cache.get('h', 1)).toBeUndefined();
  });
  it('stays bounded', () => {
    const cache = new KeyCache(5000, 2);
    cache.set('x', p, 0);
    cache.set('y', p, 0);
    cache.set('z', p, 0);
    expect(cache.get('x', 1)).toBeUndefined();
    expect(cache.get('z', 1)).toBe(p);
  });

  it('unknown keys live in a bounded cache of their own: a flood of them never evicts a valid key', () => {
    const valid = new KeyCache(5000, 2);
    const unknown = new UnknownKeyCache(5000, 100);
    valid.set('real', p, 0);
    for (let i = 0; i < 10_000; i++) unknown.set(`fake${i}`, true, 0);
    expect(valid.get('real', 1)).toBe(p);
    expect(unknown.get('fake9999', 1)).toBe(true);
    expect(unknown.get('fake0', 1)).toBeUndefined();
  });
});
