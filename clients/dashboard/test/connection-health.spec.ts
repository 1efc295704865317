import { credentialHints, formatErrorRate, healthBadge } from '../src/pages/connection-health';

const health = (o: Partial<Parameters<typeof healthBadge>[0]> = {}) => ({
  circuit: 'closed' as const,
  lastSuccessAt: null,
  lastFailureAt: null,
  lastFailureReason: null,
  errorRate: 0,
  recentCalls: 0,
  ...o,
});

describe('the Connections page’s health badge', () => {
  it('healthy while closed and nothing recent failed (no call yet included)', () => {
    expect(healthBadge(health())).toBe('healthy');
    expect(healthBadge(health({ recentCalls: 40 }))).toBe('healthy');
  });

  it('degraded when some recent calls failed or the circuit is half open; open while open', () => {
    expect(healthBadge(health({ errorRate: 0.01, recentCalls: 100 }))).toBe('degraded');
    expect(healthBadge(health({ circuit: 'half_open', errorRate: 0.05 }))).toBe('degraded');
    expect(healthBadge(health({ circuit: 'open', errorRate: 1 }))).toBe('open');
  });

  it('shows the error rate as a percentage with one decimal at most', () => {
    expect(formatErrorRate(0)).toBe('0 %');
    expect(formatErrorRate(0.125)).toBe('12.5 %');
    expect(formatErrorRate(5 / 6)).toBe('83.3 %');
    expect(formatErrorRate(1)).toBe('100 %');
  });

  it('names the credentials held by their last four only', () => {
    expect(credentialHints(undefined)).toEqual([]);
    expect(
      credentialHints({ apiKeyLast4: 'x9Qa', webhookSecretLast4: 'b7c1', updatedAt: '2026-12-06T00:00:00Z' }),
    ).toEqual(['API key ••••x9Qa', 'webhook secret ••••b7c1']);
  });
});
