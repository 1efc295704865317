import { randomString, uuidv7, uuidv7Floor } from './ids';

describe('uuidv7', () => {
  it('is a version 7, RFC 9562 variant uuid carrying the time', () => {
    const before = Date.now();
    const id = uuidv7();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });

  it('does not repeat across many ids (random pool refills)', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => uuidv7()));
    expect(ids.size).toBe(5000);
  });

  it('sorts in creation order within one millisecond too, even past 4,096 ids', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const ms = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    // Borrowing milliseconds keeps the embedded time close to the real one.
    expect(ms(ids[ids.length - 1]) - Date.now()).toBeLessThan(50);
  });

  it('sorts by creation time across milliseconds', async () => {
    const a = uuidv7();
    await new Promise((r) => setTimeout(r, 2));
    const b = uuidv7();
    expect(a < b).toBe(true);
  });
});

describe('randomString', () => {
  it('draws only from the alphabet, at the asked length, and uses every letter about equally', () => {
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'; // 34 letters: 256 is not a multiple of it
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const s = randomString(alphabet, 17);
      expect(s).toHaveLength(17);
      for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).toBe([...alphabet].sort().join(''));
    // 34,000 draws: 1,000 expected per letter. A modulo bias would give the first 18 letters ~1,066 each and the rest ~933.
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(160);
    const first = [...alphabet.slice(0, 18)].reduce((sum, c) => sum + counts.get(c)!, 0) / 18;
    const rest = [...alphabet.slice(18)].reduce((sum, c) => sum + counts.get(c)!, 0) / 16;
    expect(Math.abs(first - rest)).toBeLessThan(40);
  });

  it('does not repeat codes', () => {
    const codes = new Set(Array.from({ length: 5000 }, () => randomString('0123456789ABCDEF', 12)));
    expect(codes.size).toBe(5000);
  });
});

describe('uuidv7Floor', () => {
  it('sorts after every id of earlier milliseconds and before or at every id of its own and later ones', () => {
    const t = Date.UTC(2026, 10, 21, 12, 0, 0);
    const floor = uuidv7Floor(t);
    for (let i = 0; i < 200; i++) {
      expect(uuidv7(t - 1 - i) < floor).toBe(true);
      expect(uuidv7(t + i) >= floor).toBe(true);
    }
  });
});
