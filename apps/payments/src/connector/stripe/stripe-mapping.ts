import { currencyExponent, type AmountJson } from '@app/money';
import type Stripe from 'stripe';
import type { ApprovalDetails, AuthorizationOutcome, ThreeDsResult } from '../provider-connector';
import { stripeRefusal } from './stripe-refusals';

/**
 * Currencies whose Stripe amount is not the ISO 4217 minor unit: Stripe keeps ISK as a two-decimal currency
 * for backwards compatibility (docs.stripe.com/currencies, "Special cases"), so 1 ISK is 100 at Stripe.
 */
const STRIPE_EXTRA_DIGITS: Readonly<Record<string, number>> = { ISK: 2 };
/** Three-decimal currencies Stripe takes only in multiples of 10 minor units (docs.stripe.com/currencies). */
const THREE_DECIMALS = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** Our amount as Stripe's `amount` and lowercase `currency`; a string explains an amount Stripe cannot take. */
export function toStripeAmount(amount: AmountJson): { amount: number; currency: string } | string {
  if (THREE_DECIMALS.has(amount.currency) && amount.value % 10 !== 0) {
    return `Stripe takes ${amount.currency} amounts in multiples of 10 minor units only`;
  }
  const extra = STRIPE_EXTRA_DIGITS[amount.currency] ?? 0;
  return { amount: amount.value * 10 ** extra, currency: amount.currency.toLowerCase() };
}

/** Stripe's `amount` and `currency` back into our minor units. */
export function fromStripeAmount(value: number, currency: string): AmountJson {
  const code = currency.toUpperCase();
  const extra = STRIPE_EXTRA_DIGITS[code] ?? 0;
  return { currency: code, value: Math.round(value / 10 ** extra), exponent: currencyExponent(code) ?? 2 };
}

type CardDetails = NonNullable<Stripe.Charge.PaymentMethodDetails['card']>;

function threeDs(card: CardDetails | undefined): ThreeDsResult | undefined {
  const tds = card?.three_d_secure;
  if (!tds?.result) return undefined;
  const flow: ThreeDsResult['flow'] =
    tds.result === 'attempt_acknowledged' || tds.result === 'exempted'
      ? 'attempted'
      : tds.authentication_flow === 'challenge'
        ? 'challenge'
        : 'frictionless';
  return {
    flow,
    ...(tds.electronic_commerce_indicator ? { eci: tds.electronic_commerce_indicator } : {}),
    ...(tds.version ? { version: tds.version } : {}),
  };
}

/** The approval's fields from the PaymentIntent's latest charge (expanded). */
export function approvalDetails(intent: Stripe.PaymentIntent): ApprovalDetails {
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const card = charge?.payment_method_details?.card ?? undefined;
  const tds = threeDs(card);
  return {
    acquirerReference: intent.id,
    authorizationCode: card?.authorization_code ?? '',
    networkTransactionId: card?.network_transaction_id ?? '',
    // Stripe reports no separate scheme reference (Mastercard trace id) on a charge.
    networkReferenceId: '',
    ...(tds ? { threeDs: tds } : {}),
  };
}

/** What a PaymentIntent's state means for the authorization (after create+confirm, or on its return from 3DS). */
export function authorizationOutcome(intent: Stripe.PaymentIntent): AuthorizationOutcome {
  switch (intent.status) {
    case 'succeeded':
    case 'requires_capture':
      return { kind: 'approved', ...approvalDetails(intent) };
    case 'requires_action': {
      const next = intent.next_action;
      if (next?.type === 'redirect_to_url' && next.redirect_to_url?.url) {
        return {
          kind: 'challenge_required',
          acquirerReference: intent.id,
          action: { type: 'redirect', url: next.redirect_to_url.url, method: 'GET' },
        };
      }
      // `use_stripe_sdk` needs Stripe.js in the shopper's browser: we always send a return_url, so this is a
      // PaymentIntent made elsewhere.
      return { kind: 'failed', acquirerReference: intent.id, message: `Stripe asks for ${next?.type ?? 'an action'}` };
    }
    case 'processing':
      return { kind: 'pending_action', acquirerReference: intent.id };
    case 'requires_payment_method': {
      const error = intent.last_payment_error;
      return {
        kind: 'declined',
        acquirerReference: intent.id,
        refusalCode: stripeRefusal(error?.decline_code, error?.code, error?.message),
      };
    }
    default:
      return { kind: 'failed', acquirerReference: intent.id, message: `PaymentIntent is ${intent.status}` };
  }
}
