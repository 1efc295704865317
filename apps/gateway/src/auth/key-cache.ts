import { TtlCache } from '@app/platform';
import type { Principal } from './principal';

/**
 * Key hash → principal of a valid key, for at most the TTL: a revocation anywhere is honoured within that
 * time even if the broadcast is missed.
 */
export class KeyCache extends TtlCache<string, Principal> {
  evictKey(keyId: string): void {
    this.deleteWhere((principal) => principal.keyId === keyId);
  }
}

/**
 * Hashes of keys that are unknown or revoked, for at most the TTL, in a cache of their own: a flood of
 * made-up keys only ever pushes out other made-up keys, never a valid key's entry.
 */
export class UnknownKeyCache extends TtlCache<string, true> {}
