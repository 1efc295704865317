import { applyDecorators } from '@nestjs/common';
import { ApiResponse, DECORATORS } from '@nestjs/swagger';
import { ErrorCode, httpStatusOf } from '@app/contracts';
import { ErrorEnvelope } from './error-envelope.dto';

/** What a bearer key that is not, or no longer, one of ours is told (401 AUTH_INVALID). */
export const UNKNOWN_KEY_MESSAGE = 'Unknown or revoked API key';

/** A route's notes on error codes it can answer: what the code means on this route. */
export type ErrorNotes = Partial<Record<ErrorCode, string>>;
/** A code the route can answer (its general meaning), or codes with what they mean on this route. */
export type ErrorEntry = ErrorCode | ErrorNotes;

/** What each code means where a route says nothing more (the status comes from the code, libs/contracts). */
export const ERROR_NOTES: Record<ErrorCode, string> = {
  VALIDATION_FAILED:
    'a field is missing, of the wrong type or out of range, or the JSON is malformed; `param` names it',
  MERCHANT_CODE_REQUIRED: 'the key belongs to several merchants and `merchantCode` was not sent',
  IDEMPOTENCY_KEY_REQUIRED: 'a production money operation without an `Idempotency-Key` header',
  SESSION_EXPIRED: 'the 3DS session expired (checked before anything else)',
  AUTH_MISSING: 'no `Authorization` header, or `Bearer` with nothing after it',
  AUTH_INVALID: 'another scheme than Bearer, or a malformed, unknown or revoked credential',
  TOTP_REQUIRED: 'the dashboard user has a second factor: send `totpCode` from the authenticator app',
  PAYMENT_DECLINED: 'the charge was declined; the error carries `paymentId` and `refusalCode`',
  AUTH_INSUFFICIENT_SCOPE: 'a valid credential without permission for this route',
  MERCHANT_MISMATCH: '`merchantCode` is not one of the key’s merchants',
  CSRF_INVALID:
    'a change made with the dashboard session cookie without its `X-CSRF-Token` header, or a change of the dashboard’s routes from another site',
  NOT_FOUND: 'no such object for this merchant and environment',
  METHOD_NOT_ALLOWED: 'the path does not take this method',
  INVALID_STATE: 'the object’s state does not allow this operation',
  AUTHORIZATION_EXPIRED: 'the authorization’s hold expired before the capture',
  DUPLICATE_ORDER_CODE: '`orderCode` is held by an earlier payment that was not declined, failed or cancelled',
  DUPLICATE_PAYMENT_CODE: 'the merchant-supplied `paymentCode` is already used in this environment (by any merchant)',
  DUPLICATE_MERCHANT_CODE: 'a merchant with this `merchantCode` exists',
  DUPLICATE_METER_CODE: 'a meter with this `code` exists for this merchant and environment',
  DUPLICATE_WEBHOOK_URL: 'another webhook endpoint of this merchant and environment has this `url`',
  IDEMPOTENCY_IN_PROGRESS: 'a request with the same `Idempotency-Key` is still running; retry after `Retry-After: 1`',
  CHALLENGE_NOT_COMPLETED: 'the cardholder has not finished the 3DS challenge yet',
  PAYLOAD_TOO_LARGE: 'the body is larger than 1 MiB',
  UNSUPPORTED_MEDIA_TYPE: 'send the body as application/json',
  AMOUNT_EXCEEDS_AVAILABLE: 'more than the authorized amount (capture) or than what is left of the capture (refund)',
  CURRENCY_MISMATCH: 'the currency differs from the original’s',
  INVALID_EXPONENT: '`exponent` is not the currency’s',
  IDEMPOTENCY_KEY_REUSED: 'the `Idempotency-Key` was used with another body or on another operation',
  USAGE_PERIOD_CLOSED: 'the usage is dated in a period already invoiced',
  CLOCK_BACKWARDS: 'the target time is before the sandbox clock’s current time',
  CLOCK_ADVANCE_TOO_FAR: 'the move exceeds SANDBOX_MAX_ADVANCE, or more due work than SANDBOX_MAX_ADVANCE_WORK',
  WEBHOOK_ENDPOINT_LIMIT: 'the merchant has WEBHOOK_MAX_ENDPOINTS webhook endpoints in this environment already',
  NO_CONNECTION:
    'no connection of the merchant in this environment accepts the payment’s method and currency (production has none until the operator adds one); nothing was reserved',
  RATE_LIMITED: 'too many requests; wait `Retry-After` seconds',
  ACCOUNT_LOCKED: 'too many failed sign-ins for this email; wait `Retry-After` seconds',
  INTERNAL_ERROR: 'an unforeseen fault; it is logged under `requestId`',
  SERVICE_UNAVAILABLE: 'a service behind the gateway is not running or cannot be reached; nothing was done',
  UPSTREAM_TIMEOUT: 'a service behind the gateway did not answer in time',
};

/** The message and `param` an example answer of each code shows. */
const EXAMPLE_MESSAGES: Partial<Record<ErrorCode, [message: string, param?: string]>> = {
  VALIDATION_FAILED: ['amount.value must be an integer number', 'amount.value'],
  MERCHANT_CODE_REQUIRED: [
    'This key belongs to several merchants (acme, acme-eu): send merchantCode (in the body, or in the query string on GET) to say which one the request is for',
    'merchantCode',
  ],
  IDEMPOTENCY_KEY_REQUIRED: ['Idempotency-Key is required in production', 'Idempotency-Key'],
  SESSION_EXPIRED: ['The 3DS session has expired', 'sessionId'],
  AUTH_MISSING: ['Authorization header with a Bearer key is required'],
  AUTH_INVALID: [UNKNOWN_KEY_MESSAGE],
  PAYMENT_DECLINED: ['The payment was declined (51 Insufficient funds)', 'card'],
  AUTH_INSUFFICIENT_SCOPE: ['A public key cannot call server routes; use a private key'],
  MERCHANT_MISMATCH: ['This key does not belong to merchant acme-eu', 'merchantCode'],
  NOT_FOUND: ['No such payment', 'id'],
  INVALID_STATE: ['Only an authorized payment can be captured'],
  AUTHORIZATION_EXPIRED: ['The authorization expired; the hold was released'],
  DUPLICATE_ORDER_CODE: ['orderCode order-1001 is already used by a payment', 'orderCode'],
  DUPLICATE_PAYMENT_CODE: ['paymentCode pay-1001 is already used', 'paymentCode'],
  DUPLICATE_MERCHANT_CODE: ['Merchant acme exists', 'merchantCode'],
  DUPLICATE_METER_CODE: ['Meter api_calls exists', 'code'],
  DUPLICATE_WEBHOOK_URL: ['A webhook endpoint with this url exists', 'url'],
  IDEMPOTENCY_IN_PROGRESS: ['A request with this Idempotency-Key is in progress', 'Idempotency-Key'],
  CHALLENGE_NOT_COMPLETED: ['The 3DS challenge is not completed yet', 'sessionId'],
  PAYLOAD_TOO_LARGE: ['Request body is larger than 1 MiB'],
  UNSUPPORTED_MEDIA_TYPE: ['Send the body as application/json'],
  AMOUNT_EXCEEDS_AVAILABLE: ['The amount exceeds what is available: 1999', 'amount.value'],
  CURRENCY_MISMATCH: ['amount.currency must be USD', 'amount.currency'],
  INVALID_EXPONENT: ['amount.exponent must be 2 for USD', 'amount.exponent'],
  IDEMPOTENCY_KEY_REUSED: ['This Idempotency-Key was used with another request', 'Idempotency-Key'],
  USAGE_PERIOD_CLOSED: ['occurredAt is in a period already invoiced', 'occurredAt'],
  CLOCK_BACKWARDS: ['The sandbox clock cannot move backwards', 'to'],
  CLOCK_ADVANCE_TOO_FAR: ['One call moves the sandbox clock at most P1Y', 'by'],
  WEBHOOK_ENDPOINT_LIMIT: ['At most 16 webhook endpoints per merchant and environment; delete one first'],
  NO_CONNECTION: ['No production connection accepts card payments in EUR', 'amount.currency'],
  RATE_LIMITED: ['Too many requests for this key'],
  INTERNAL_ERROR: ['Internal error'],
  SERVICE_UNAVAILABLE: ['The payments service is unavailable'],
  UPSTREAM_TIMEOUT: ['The payments service did not answer in time; the outcome is unknown'],
};

const EXAMPLE_REQUEST_ID = '0b6f1c1e-5a8e-4c39-9d7e-2f4b8a1d3c55';

/** The error envelope a code answers, as an example value. */
export function errorExample(code: ErrorCode): { error: Record<string, unknown> } {
  const [message, param] = EXAMPLE_MESSAGES[code] ?? [ERROR_NOTES[code]];
  const extra =
    code === 'PAYMENT_DECLINED'
      ? {
          paymentId: '01936f0e-8a4b-7c3d-9e2f-1a2b3c4d5e6f',
          refusalCode: {
            reasonCode: '51',
            reason: 'Insufficient funds',
            originalReasonCode: '51',
            originalReason: 'INSUFFICIENT_FUNDS',
            recoveryAction: 'switch_method',
          },
        }
      : {};
  return {
    error: {
      status: httpStatusOf(code),
      code,
      message,
      ...extra,
      ...(param ? { param } : {}),
      requestId: EXAMPLE_REQUEST_ID,
    },
  };
}

/** Two notes on one code (say, from the route's caller and from its body): either case can happen. */
export function joinNotes(first: string | undefined, then: string): string {
  if (!first) return then;
  return first.split('; or ').includes(then) ? first : `${first}; or ${then}`;
}

/** The entries as one code → note map; notes on one code add up, a bare code adds its general meaning. */
export function errorNotesOf(entries: readonly ErrorEntry[]): ErrorNotes {
  const notes: ErrorNotes = {};
  for (const entry of entries) {
    if (typeof entry === 'string') notes[entry] ??= ERROR_NOTES[entry];
    else
      for (const [code, note] of Object.entries(entry) as [ErrorCode, string][]) {
        notes[code] = joinNotes(notes[code], note);
      }
  }
  return notes;
}

/** One named example per code: the Example Object's summary is what the code means on this route. */
export function errorExamples(notes: ErrorNotes): Record<string, { summary: string; value: unknown }> {
  const out: Record<string, { summary: string; value: unknown }> = {};
  for (const [code, note] of Object.entries(notes) as [ErrorCode, string][]) {
    out[code] = { summary: note, value: errorExample(code) };
  }
  return out;
}

/**
 * Documents the error codes a route can answer: one response per HTTP status (taken from the code's entry in
 * libs/contracts), the error envelope as its schema and one example per code. Several uses on one route add
 * up. The codes every route of a kind answers (credentials, bodies, limits) are added from the route's shape
 * when the document is built (openapi-errors.ts).
 */
export function ApiErrors(...entries: ErrorEntry[]): MethodDecorator & ClassDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const earlier = (Reflect.getMetadata(DECORATORS.API_RESPONSE, descriptor ? descriptor.value : target) ??
      {}) as Record<string, { examples?: Record<string, { summary?: string }> }>;
    const byStatus = new Map<number, ErrorNotes>();
    for (const [code, note] of Object.entries(errorNotesOf(entries)) as [ErrorCode, string][]) {
      const status = httpStatusOf(code);
      // A code documented twice on one route (its caller and its body, say) keeps both notes.
      const merged = joinNotes(earlier[status]?.examples?.[code]?.summary, note);
      byStatus.set(status, { ...byStatus.get(status), [code]: merged });
    }
    const decorators = [...byStatus].map(([status, notes]) =>
      ApiResponse({ status, type: ErrorEnvelope, description: '', examples: errorExamples(notes) }),
    );
    return applyDecorators(...decorators)(target, key as string | symbol, descriptor as PropertyDescriptor);
  };
}
