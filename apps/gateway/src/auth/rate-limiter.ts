import type { RateLimitState } from '../http/rate-limited';

/**
 * Counts per key in fixed windows, in memory: a limit built on it applies per gateway replica. At most
 * `maxKeys` keys are tracked in one window, so a flood of distinct keys cannot grow it without bound.
 */
export class FixedWindowLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** The refusal when `key` has used up its window, else null; counts nothing. */
  exhausted(key: string, nowMs: number): RateLimitState | null {
    if (this.limit <= 0) return null;
    this.roll(nowMs);
    return (this.counts.get(key) ?? 0) >= this.limit ? this.refusal(nowMs) : null;
  }

  /** Counts one for `key`. */
  add(key: string, nowMs: number): number {
    if (this.limit <= 0) return 0;
    this.roll(nowMs);
    if (!this.counts.has(key) && this.counts.size >= this.maxKeys) return 0;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n;
  }

  /** Counts one request: the refusal when it is over the limit, else null. */
  take(key: string, nowMs: number): RateLimitState | null {
    return this.add(key, nowMs) > this.limit ? this.refusal(nowMs) : null;
  }

  private roll(nowMs: number): void {
    const start = nowMs - (nowMs % this.windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counts = new Map();
    }
  }

  private refusal(nowMs: number): RateLimitState {
    return { limit: this.limit, remaining: 0, resetSeconds: (this.windowStart + this.windowMs - nowMs) / 1000 };
  }
}

/** Requests per key in one-second windows (RATE_LIMIT_PER_SECOND; 0 is off), per gateway replica. */
export class RateLimiter extends FixedWindowLimiter {
  constructor(perSecond: number) {
    super(perSecond, 1000);
  }
}
