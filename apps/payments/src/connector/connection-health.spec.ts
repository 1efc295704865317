import { ConnectionHealth, HEALTH_WINDOW, OPEN_AFTER_FAILURES, OPEN_FOR_MS } from './connection-health';

describe('ConnectionHealth', () => {
  let now = 1_000_000;
  const health = new ConnectionHealth();
  health.now = () => now;
  const iso = (ms: number) => new Date(ms).toISOString();

  it('an unknown connection is closed, with nothing recorded', () => {
    expect(health.view('none')).toEqual({
      circuit: 'closed',
      lastSuccessAt: null,
      lastFailureAt: null,
      lastFailureReason: null,
      errorRate: 0,
      recentCalls: 0,
    });
  });

  it('records last success, last failure and the error rate of the recent calls', () => {
    health.record('a', true);
    now += 10;
    health.record('a', false, 'timeout');
    now += 10;
    health.record('a', true);
    health.record('a', true);
    expect(health.view('a')).toEqual({
      circuit: 'closed',
      lastSuccessAt: iso(now),
      lastFailureAt: iso(now - 10),
      lastFailureReason: 'timeout',
      errorRate: 0.25,
      recentCalls: 4,
    });
  });

  it(`opens after ${OPEN_AFTER_FAILURES} failures in a row, half opens after ${OPEN_FOR_MS} ms, a success closes`, () => {
    for (let i = 1; i < OPEN_AFTER_FAILURES; i++) health.record('b', false);
    expect(health.circuitOf('b')).toBe('closed');
    health.record('b', false);
    expect(health.circuitOf('b')).toBe('open');
    expect(health.isOpen('b')).toBe(true);
    now += OPEN_FOR_MS;
    expect(health.circuitOf('b')).toBe('half_open');
    expect(health.isOpen('b')).toBe(false);
    // A failed trial opens it again at once.
    health.record('b', false);
    expect(health.circuitOf('b')).toBe('open');
    now += OPEN_FOR_MS;
    health.record('b', true);
    expect(health.circuitOf('b')).toBe('closed');
    // The count starts again: one failure does not reopen it.
    health.record('b', false);
    expect(health.circuitOf('b')).toBe('closed');
  });

  it(`the error rate covers the last ${HEALTH_WINDOW} calls only`, () => {
    for (let i = 0; i < HEALTH_WINDOW; i++) health.record('c', false);
    for (let i = 0; i < HEALTH_WINDOW / 2; i++) health.record('c', true);
    expect(health.view('c')).toMatchObject({ errorRate: 0.5, recentCalls: HEALTH_WINDOW });
  });
});
