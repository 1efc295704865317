import { TtlCache } from '@app/platform';

/**
 * Merchant code → offset of its sandbox clock, for at most the TTL, so a sandbox request costs no database
 * read. An advance updates the entry on its own replica and evicts it on the others (broadcast); the TTL
 * bounds how stale a replica that missed the broadcast can be. A read that began before an eviction must
 * not put the old value back: `epoch()` at its start, and `set` ignores it if anything was evicted since.
 */
export class ClockOffsetCache extends TtlCache<string, number> {
  private evictions = 0;

  epoch(): number {
    return this.evictions;
  }

  /** `epoch`: the value `epoch()` had when the read of `offsetMs` began (omit it for a value just written). */
  override set(merchantCode: string, offsetMs: number, nowMs: number, epoch = this.evictions): void {
    if (epoch === this.evictions) super.set(merchantCode, offsetMs, nowMs);
  }

  evict(merchantCode: string): void {
    this.evictions++;
    this.delete(merchantCode);
  }
}
