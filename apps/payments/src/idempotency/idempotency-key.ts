import { createHash } from 'node:crypto';
import { Environment, isValidIdempotencyKey } from '@app/contracts';
import { DomainError } from '@app/errors';

/** The operations an Idempotency-Key is honoured on; a key belongs to the first one it was used with. */
export type IdempotentOperation = 'purchase' | 'authorization' | 'capture' | 'refund' | 'cancel' | 'cancel_or_refund';

/**
 * 400 VALIDATION_FAILED for a malformed key; 400 IDEMPOTENCY_KEY_REQUIRED without one in production, where
 * every payment money operation must be safe to retry (DECISIONS §1).
 */
export function checkIdempotencyKey(environment: Environment, key: string | undefined): void {
  if (key === undefined) {
    if (environment === 'production') {
      throw new DomainError(
        'IDEMPOTENCY_KEY_REQUIRED',
        'Send an Idempotency-Key header (a uuid per operation) on production money operations',
        'Idempotency-Key',
      );
    }
    return;
  }
  if (!isValidIdempotencyKey(key)) {
    throw DomainError.validation('Idempotency-Key must be 1-255 printable ASCII characters', 'Idempotency-Key');
  }
}

/** JSON with object keys sorted at every level and undefined left out, so equal requests hash equal. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function requestHash(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}
