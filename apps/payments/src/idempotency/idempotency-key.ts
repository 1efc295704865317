import { createHash } from 'node:crypto';
import { canonicalJson, Environment, isValidIdempotencyKey } from '@app/contracts';
import { DomainError } from '@app/errors';

export { canonicalJson };

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

export function requestHash(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}
