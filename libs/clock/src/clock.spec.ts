import { ManualClock, sandboxOffsetOf, SandboxOffsetClock } from './clock';

const HOUR = 3600_000;

describe('SandboxOffsetClock', () => {
  const base = new ManualClock(new Date('2024-05-01T00:00:00.000Z'));
  const clock = new SandboxOffsetClock(base);

  it('adds a sandbox scope’s offset to the base clock', () => {
    const now = clock.now({ merchantCode: 'm', environment: 'sandbox', clockOffsetMs: 3 * HOUR });
    expect(now.toISOString()).toBe('2024-05-01T03:00:00.000Z');
  });

  it('is the base clock without a scope, without an offset, and always in production', () => {
    expect(clock.now().toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(clock.now({ merchantCode: 'm', environment: 'sandbox' }).toISOString()).toBe('2024-05-01T00:00:00.000Z');
    const production = { merchantCode: 'm', environment: 'production' as const, clockOffsetMs: HOUR };
    expect(clock.now(production).toISOString()).toBe('2024-05-01T00:00:00.000Z');
  });

  it('follows the base clock as it moves', () => {
    base.advance(HOUR);
    expect(clock.now({ merchantCode: 'm', environment: 'sandbox', clockOffsetMs: HOUR }).toISOString()).toBe(
      '2024-05-01T02:00:00.000Z',
    );
    base.set(new Date('2024-05-01T00:00:00.000Z'));
  });

  it('ignores an offset that is not a positive safe integer', () => {
    for (const clockOffsetMs of [-HOUR, 1.5, Number.NaN, Infinity, '5' as unknown as number]) {
      expect(sandboxOffsetOf({ merchantCode: 'm', environment: 'sandbox', clockOffsetMs })).toBe(0);
    }
  });
});
