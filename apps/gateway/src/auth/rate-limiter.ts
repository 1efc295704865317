/** Per-key fixed one-second windows; in memory, so the limit applies per gateway replica. */
export class RateLimiter {
  private window = 0;
  private counts = new Map<string, number>();

  constructor(private readonly perSecond: number) {}

  /** Seconds to wait, or 0 when the request may proceed. */
  take(key: string, nowMs: number): number {
    if (this.perSecond <= 0) return 0;
    const window = Math.floor(nowMs / 1000);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n > this.perSecond ? 1 : 0;
  }
}
