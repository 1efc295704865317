import type { RateLimitState } from '../http/rate-limited';

/**
 * Declines per key (a client address, a payment link) in a sliding window, in memory: the latest `limit`
 * decline times of at most `maxKeys` keys. A key with `limit` declines inside the window is closed until the
 * oldest of them leaves it. A limit of 0 closes nothing.
 */
export class DeclineLog {
  private readonly times = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** The refusal of a new attempt when `key` is closed, else null. */
  closed(key: string, nowMs: number): RateLimitState | null {
    if (this.limit <= 0) return null;
    const times = this.recent(key, nowMs);
    if (times.length < this.limit) return null;
    return { limit: this.limit, remaining: 0, resetSeconds: (times[0] + this.windowMs - nowMs) / 1000 };
  }

  /** Records a decline; true when this very decline closed the key. */
  add(key: string, nowMs: number): boolean {
    if (this.limit <= 0) return false;
    const times = this.recent(key, nowMs);
    const wasClosed = times.length >= this.limit;
    times.push(nowMs);
    if (times.length > this.limit) times.shift();
    if (!this.times.has(key)) {
      this.makeRoom(nowMs);
      this.times.set(key, times);
    }
    return !wasClosed && times.length >= this.limit;
  }

  get size(): number {
    return this.times.size;
  }

  private recent(key: string, nowMs: number): number[] {
    const times = this.times.get(key);
    if (!times) return [];
    while (times.length && times[0] <= nowMs - this.windowMs) times.shift();
    if (!times.length) this.times.delete(key);
    return times;
  }

  /** Full: the keys whose declines all left the window go first, then the oldest keys. */
  private makeRoom(nowMs: number): void {
    if (this.times.size < this.maxKeys) return;
    for (const [key, times] of this.times) if (times[times.length - 1] <= nowMs - this.windowMs) this.times.delete(key);
    for (const key of this.times.keys()) {
      if (this.times.size < this.maxKeys) break;
      this.times.delete(key);
    }
  }
}
