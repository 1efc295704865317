import type { Principal } from './principal';

interface Entry {
  principal: Principal | null;
  expiresAt: number;
}

/**
 * Key hash → principal (or null for an unknown/revoked key), for at most `ttlMs`: a revocation anywhere is
 * honoured within that time even if the broadcast is missed. Bounded, oldest entries go first.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(hash: string, nowMs: number): Entry | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.expiresAt <= nowMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return e;
  }

  set(hash: string, principal: Principal | null, nowMs: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { principal, expiresAt: nowMs + this.ttlMs });
  }

  evictKey(keyId: string): void {
    for (const [hash, e] of this.entries) if (e.principal?.keyId === keyId) this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}
