import { IDEMPOTENCY_KEY_FORMAT, isValidIdempotencyKey } from '@app/contracts';
import { DomainError } from '@app/errors';
import { RequestFingerprints } from './fingerprint';

/** What a request found under its Idempotency-Key, as far as deciding the answer goes. */
export interface EarlierRequest {
  operation: string;
  requestHash: string;
  /** False while the first request is still in progress. */
  answered: boolean;
  body: unknown;
}

/**
 * 400 VALIDATION_FAILED for a malformed key; 400 IDEMPOTENCY_KEY_REQUIRED without one where `required` (payments'
 * money operations in production, which must be safe to retry).
 */
export function checkIdempotencyKey(key: string | undefined, required = false): void {
  if (key === undefined) {
    if (required) {
      throw new DomainError(
        'IDEMPOTENCY_KEY_REQUIRED',
        'Send an Idempotency-Key header (a uuid per operation) on production money operations',
        'Idempotency-Key',
      );
    }
    return;
  }
  if (!isValidIdempotencyKey(key)) {
    throw DomainError.validation(`Idempotency-Key must be ${IDEMPOTENCY_KEY_FORMAT}`, 'Idempotency-Key');
  }
}

/**
 * The earlier request's stored answer, replayed; 409 IDEMPOTENCY_IN_PROGRESS while it is in progress (whatever
 * its body), 422 IDEMPOTENCY_KEY_REUSED when it was another operation or another body.
 */
export function replayOf<T>(
  earlier: EarlierRequest,
  operation: string,
  request: unknown,
  fingerprints: RequestFingerprints,
): T {
  if (!earlier.answered) throw keyInProgress();
  if (earlier.operation !== operation || !fingerprints.matches(earlier.requestHash, request, operation)) {
    throw keyReused(earlier.operation === operation);
  }
  return earlier.body as T;
}

export const keyReused = (sameOperation: boolean): DomainError =>
  new DomainError(
    'IDEMPOTENCY_KEY_REUSED',
    `This Idempotency-Key was used for another ${sameOperation ? 'request body' : 'operation'}`,
    'Idempotency-Key',
  );

export const keyInProgress = (
  message = 'A request with this Idempotency-Key is still in progress; retry shortly',
): DomainError => new DomainError('IDEMPOTENCY_IN_PROGRESS', message, 'Idempotency-Key');
