import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('answers a value for at most the TTL, null included', () => {
    const cache = new TtlCache<string, number | null>(5000);
    expect(cache.get('a', 0)).toBeUndefined();
    cache.set('a', 42, 0);
    cache.set('b', null, 0);
    expect(cache.get('a', 4999)).toBe(42);
    expect(cache.get('b', 4999)).toBeNull();
    expect(cache.get('a', 5000)).toBeUndefined();
  });

  it('deletes by key or by value, and stays bounded, oldest first', () => {
    const cache = new TtlCache<string, number>(5000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBe(2);
    cache.deleteWhere((v) => v === 2);
    expect(cache.get('b', 1)).toBeUndefined();
    cache.delete('c');
    expect(cache.get('c', 1)).toBeUndefined();
  });

  it('caches nothing with a TTL of 0', () => {
    const cache = new TtlCache<string, number>(0);
    cache.set('a', 1, 0);
    expect(cache.get('a', 0)).toBeUndefined();
  });
});
