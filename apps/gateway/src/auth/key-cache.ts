import { TtlCache } from '@app/platform';
import type { Principal } from './principal';

/**
 * Key hash → principal (or null for an unknown/revoked key), for at most the TTL: a revocation anywhere is
 * honoured within that time even if the broadcast is missed.
 */
export class KeyCache extends TtlCache<string, Principal | null> {
  evictKey(keyId: string): void {
    this.deleteWhere((principal) => principal?.keyId === keyId);
  }
}
