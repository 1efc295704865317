import { assertNever } from '../connector/assert-never';
import { AuthorizationOutcome, ModificationOutcome, SyncedStatus } from '../connector/provider-connector';
import { AcquirerAttempt } from './acquirer-attempt';

/** The provider's reference the attempt was about, when it had one (a resume's, a modification's payment). */
export function acquirerReferenceOf(a: AcquirerAttempt): string | undefined {
  return a.detail.kind === 'complete_challenge' ? a.detail.acquirerReference : undefined;
}

const AFTER = { capture: 'captured', refund: 'refunded', cancel: 'cancelled' } as const;

/**
 * What a status sync says the attempt's call did, as that call would have answered it; undefined when the
 * status does not settle it (the provider has no record, or its status is not final for this call).
 */
export function answerOf(
  a: AcquirerAttempt,
  synced: SyncedStatus | undefined,
): AuthorizationOutcome | ModificationOutcome | undefined {
  if (!synced) return undefined;
  const detail = a.detail;
  if (detail.kind === 'capture' || detail.kind === 'refund' || detail.kind === 'cancel') {
    if (synced.kind === 'failed') return { kind: 'failed', message: synced.message };
    return synced.kind === AFTER[detail.kind] ? { kind: 'succeeded' } : undefined;
  }
  const acquirerReference = acquirerReferenceOf(a) ?? '';
  switch (synced.kind) {
    case 'approved':
    case 'declined':
    case 'failed':
    case 'challenge_required':
    case 'pending_action':
      return synced;
    // A status without the approval's details: approved, the details the provider did not give left empty.
    case 'authorized':
    case 'captured':
    case 'refunded':
      return {
        kind: 'approved',
        acquirerReference,
        authorizationCode: '',
        networkTransactionId: '',
        networkReferenceId: '',
      };
    case 'cancelled':
      return { kind: 'failed', acquirerReference: acquirerReference || null, message: 'Cancelled at the provider' };
    default:
      return assertNever(synced);
  }
}
