import { ApiErrors, ErrorEntry, ErrorNotes } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';

const ACQUIRER_TROUBLE = 'nothing was recorded; the operation may be retried with the same Idempotency-Key';

/**
 * A route that waits for the acquirer, which may be unreachable or slow (its refusal is a 200 with status
 * `failed`): these cases add to the forwarded route's 503 and 504.
 */
export const ACQUIRER_ERRORS: ErrorNotes = {
  SERVICE_UNAVAILABLE: `the acquirer could not be reached: ${ACQUIRER_TROUBLE}`,
  UPSTREAM_TIMEOUT:
    'the acquirer did not answer within ACQUIRER_TIMEOUT_MS (message "The acquirer did not answer in time…", ' +
    `told apart from the gateway's own by the message): ${ACQUIRER_TROUBLE}`,
};

/** A money operation of the payments service: its Idempotency-Key is required in production. */
export const MONEY_OPERATION: ErrorEntry[] = [
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  ACQUIRER_ERRORS,
];

/** The error answers of a payments-service route: its own codes, and those of a forwarded route. */
export const PaymentErrors = (...entries: ErrorEntry[]): MethodDecorator & ClassDecorator =>
  ApiErrors(forwardedTo('payments'), ...entries);
