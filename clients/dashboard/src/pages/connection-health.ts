import type { ConnectionView } from '../session';

export type HealthBadge = 'healthy' | 'degraded' | 'open';

/**
 * The badge a person reads: `open` while the circuit is open (routing tries the other connections first),
 * `degraded` while it is half open or some of the recent calls failed, else `healthy` (no call yet included).
 */
export function healthBadge(h: ConnectionView['health']): HealthBadge {
  if (h.circuit === 'open') return 'open';
  if (h.circuit === 'half_open' || h.errorRate > 0) return 'degraded';
  return 'healthy';
}

/** The error rate as a percentage with at most one decimal ("12.5 %"), from the API's 0–1 share. */
export function formatErrorRate(rate: number): string {
  return `${Math.round(rate * 1000) / 10} %`;
}

export const CIRCUIT_LABELS: Record<ConnectionView['health']['circuit'], string> = {
  closed: 'closed',
  open: 'open',
  half_open: 'half-open',
};

export const FAILURE_REASONS: Record<NonNullable<ConnectionView['health']['lastFailureReason']>, string> = {
  unreachable: 'unreachable',
  timeout: 'no answer in time',
  answer_lost: 'answer lost',
};

/** "•••• x9Qa" for each credential the connection holds; the values are never sent to the dashboard. */
export function credentialHints(c: ConnectionView['credentials']): string[] {
  if (!c) return [];
  const named: Array<[string, string | undefined]> = [
    ['API key', c.apiKeyLast4],
    ['merchant account', c.merchantAccountLast4],
    ['HMAC key', c.hmacKeyLast4],
    ['webhook secret', c.webhookSecretLast4],
  ];
  return named.filter(([, last4]) => last4).map(([name, last4]) => `${name} ••••${last4}`);
}
