interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * A value per key for at most `ttlMs` (a TTL of 0 or less caches nothing), bounded to `maxEntries`: the
 * oldest entry goes first. The read paths' caches (API keys, sandbox clock offsets, connections) are this;
 * the TTL bounds how stale a replica can be when it missed a change made on another one.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  /** The cached value, or undefined when there is none or it expired. */
  get(key: K, nowMs: number): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: K, value: V, nowMs: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: nowMs + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, e] of this.entries) if (matches(e.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
