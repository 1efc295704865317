interface Entry {
  offsetMs: number;
  expiresAt: number;
}

/**
 * Merchant code → offset of its sandbox clock, for at most `ttlMs`, so a sandbox request costs no database
 * read. An advance updates the entry on its own replica and evicts it on the others (broadcast); the TTL
 * bounds how stale a replica that missed the broadcast can be. A read that began before an eviction must
 * not put the old value back: `epoch()` at its start, and `set` ignores it if anything was evicted since.
 */
export class ClockOffsetCache {
  private readonly entries = new Map<string, Entry>();
  private evictions = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(merchantCode: string, nowMs: number): number | undefined {
    const e = this.entries.get(merchantCode);
    if (!e) return undefined;
    if (e.expiresAt <= nowMs) {
      this.entries.delete(merchantCode);
      return undefined;
    }
    return e.offsetMs;
  }

  epoch(): number {
    return this.evictions;
  }

  /** `epoch`: the value `epoch()` had when the read of `offsetMs` began (omit it for a value just written). */
  set(merchantCode: string, offsetMs: number, nowMs: number, epoch = this.evictions): void {
    if (epoch !== this.evictions) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(merchantCode)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(merchantCode, { offsetMs, expiresAt: nowMs + this.ttlMs });
  }

  evict(merchantCode: string): void {
    this.evictions++;
    this.entries.delete(merchantCode);
  }
}
