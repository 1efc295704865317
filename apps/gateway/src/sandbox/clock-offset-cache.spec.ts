import { ClockOffsetCache } from './clock-offset-cache';

describe('ClockOffsetCache', () => {
  it('answers an offset for at most the TTL', () => {
    const cache = new ClockOffsetCache(5000);
    expect(cache.get('m', 0)).toBeUndefined();
    cache.set('m', 42, 0);
    expect(cache.get('m', 4999)).toBe(42);
    expect(cache.get('m', 5000)).toBeUndefined();
  });

  it('evicts a merchant at once', () => {
    const cache = new ClockOffsetCache(5000);
    cache.set('m', 42, 0);
    cache.set('n', 7, 0);
    cache.evict('m');
    expect(cache.get('m', 1)).toBeUndefined();
    expect(cache.get('n', 1)).toBe(7);
  });

  it('drops a read that began before an eviction, so a stale offset is not cached again', () => {
    const cache = new ClockOffsetCache(5000);
    const epoch = cache.epoch();
    cache.evict('m');
    cache.set('m', 0, 1, epoch);
    expect(cache.get('m', 2)).toBeUndefined();
    cache.set('m', 60_000, 3, cache.epoch());
    expect(cache.get('m', 4)).toBe(60_000);
  });

  it('stays bounded, oldest first', () => {
    const cache = new ClockOffsetCache(5000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBe(3);
  });
});
