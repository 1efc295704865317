import type { RefusalCodeDto } from '@app/contracts';
import type { RecoveryAction } from '@app/contracts';

/**
 * Stripe's card decline codes (`decline_code` of a `card_error`, or its `code` when Stripe gives no decline code)
 * in our terms: the normalized ISO 8583 response code, its wording, and what the merchant should do next.
 * Source: Stripe's "Decline codes" reference (docs.stripe.com/declines/codes) and the card error codes of
 * docs.stripe.com/error-codes. docs/connectors-stripe.md prints this table; every row is tested.
 */
export const STRIPE_DECLINES: Readonly<Record<string, readonly [string, string, RecoveryAction]>> = {
  authentication_required: ['1A', 'Authentication required', 'switch_method'],
  approve_with_id: ['1', 'Refer to card issuer', 'retry'],
  call_issuer: ['1', 'Refer to card issuer', 'switch_method'],
  card_declined: ['5', 'Do not honor', 'retry'],
  card_not_supported: ['57', 'Transaction not permitted to cardholder', 'switch_method'],
  card_velocity_exceeded: ['61', 'Exceeds withdrawal amount limit', 'switch_method'],
  currency_not_supported: ['57', 'Transaction not permitted to cardholder', 'switch_method'],
  do_not_honor: ['5', 'Do not honor', 'retry'],
  do_not_try_again: ['5', 'Do not try again', 'terminal'],
  duplicate_transaction: ['94', 'Duplicate transmission', 'terminal'],
  expired_card: ['54', 'Expired card', 'switch_method'],
  fraudulent: ['59', 'Suspected fraud', 'terminal'],
  generic_decline: ['5', 'Do not honor', 'retry'],
  incorrect_cvc: ['82', 'CVV failure', 'switch_method'],
  incorrect_number: ['14', 'Invalid card number', 'switch_method'],
  incorrect_pin: ['55', 'Incorrect PIN', 'switch_method'],
  incorrect_zip: ['5', 'Postal code check failed', 'switch_method'],
  insufficient_funds: ['51', 'Insufficient funds', 'switch_method'],
  invalid_account: ['14', 'Invalid account', 'switch_method'],
  invalid_amount: ['13', 'Invalid amount', 'terminal'],
  invalid_cvc: ['82', 'CVV failure', 'switch_method'],
  invalid_expiry_month: ['54', 'Invalid expiry date', 'switch_method'],
  invalid_expiry_year: ['54', 'Invalid expiry date', 'switch_method'],
  invalid_number: ['14', 'Invalid card number', 'switch_method'],
  invalid_pin: ['55', 'Incorrect PIN', 'switch_method'],
  issuer_not_available: ['91', 'Issuer unavailable', 'retry'],
  lost_card: ['41', 'Lost card', 'terminal'],
  merchant_blacklist: ['59', 'Blocked by the merchant', 'terminal'],
  new_account_information_available: ['14', 'New account information available', 'switch_method'],
  no_action_taken: ['5', 'No action taken', 'switch_method'],
  not_permitted: ['57', 'Transaction not permitted to cardholder', 'switch_method'],
  offline_pin_required: ['55', 'PIN required', 'switch_method'],
  online_or_offline_pin_required: ['55', 'PIN required', 'switch_method'],
  pickup_card: ['4', 'Pick up card', 'terminal'],
  pin_try_exceeded: ['75', 'PIN tries exceeded', 'switch_method'],
  processing_error: ['96', 'System malfunction', 'retry'],
  reenter_transaction: ['19', 'Re-enter transaction', 'retry'],
  restricted_card: ['62', 'Restricted card', 'terminal'],
  revocation_of_all_authorizations: ['5', 'Authorizations revoked by the cardholder', 'terminal'],
  revocation_of_authorization: ['5', 'Authorization revoked by the cardholder', 'terminal'],
  security_violation: ['63', 'Security violation', 'terminal'],
  service_not_allowed: ['57', 'Transaction not permitted to cardholder', 'switch_method'],
  stolen_card: ['43', 'Stolen card', 'terminal'],
  stop_payment_order: ['5', 'Stop payment order', 'terminal'],
  testmode_decline: ['14', 'Test card used in live mode', 'switch_method'],
  transaction_not_allowed: ['57', 'Transaction not permitted to cardholder', 'switch_method'],
  try_again_later: ['19', 'Re-enter transaction', 'retry'],
  withdrawal_count_limit_exceeded: ['65', 'Activity count limit exceeded', 'switch_method'],
  /** A 3DS challenge the cardholder failed or abandoned (PaymentIntent `last_payment_error.code`). */
  payment_intent_authentication_failure: ['Q1', 'Card authentication failed', 'switch_method'],
};

/** A code Stripe adds later than this table: a plain decline the cascade may try elsewhere. */
const UNKNOWN: readonly [string, string, RecoveryAction] = ['5', 'Do not honor', 'retry'];

/**
 * Our refusal code for Stripe's decline: `declineCode` first (Stripe's finer reason), else the error's `code`.
 * `message` is Stripe's own wording, kept as the original reason.
 */
export function stripeRefusal(
  declineCode: string | null | undefined,
  code: string | null | undefined,
  message?: string | null,
): RefusalCodeDto {
  const key = declineCode || code || 'card_declined';
  const [reasonCode, reason, recoveryAction] = STRIPE_DECLINES[key] ?? UNKNOWN;
  return { reasonCode, reason, originalReasonCode: key, originalReason: message || key, recoveryAction };
}
