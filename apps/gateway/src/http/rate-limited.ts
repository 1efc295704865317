import { DomainError } from '@app/errors';

/** What a 429 tells the client (the IETF RateLimit fields beside Retry-After). */
export interface RateLimitState {
  /** The limit of the window that refused the request. */
  limit: number;
  /** Requests (or attempts) still allowed in that window: 0 when refused. */
  remaining: number;
  /** Whole seconds until the window lets requests through again. */
  resetSeconds: number;
}

/** 429 RATE_LIMITED with `Retry-After` and `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`. */
export function rateLimited(message: string, state: RateLimitState): DomainError {
  const reset = Math.max(1, Math.ceil(state.resetSeconds));
  return new DomainError('RATE_LIMITED', message, undefined, {
    retryAfter: reset,
    rateLimit: { limit: state.limit, remaining: Math.max(0, state.remaining), resetSeconds: reset },
  });
}

/** The RateLimit header fields of an error's details, if it carries any. */
export function rateLimitHeaders(details: unknown): Record<string, string> | undefined {
  const s = (details as { rateLimit?: RateLimitState } | undefined)?.rateLimit;
  if (!s) return undefined;
  return {
    'ratelimit-limit': String(s.limit),
    'ratelimit-remaining': String(s.remaining),
    'ratelimit-reset': String(s.resetSeconds),
  };
}
