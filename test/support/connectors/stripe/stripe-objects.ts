import { fixtureCopy } from './stripe-shape';

/** What the double remembers of one card PaymentMethod (the number only to decide the test card's answer). */
export interface CardMethod {
  id: string;
  number: string;
  expMonth: number;
  expYear: number;
  name: string | null;
  created: number;
}

export interface ChargeState {
  id: string;
  intentId: string;
  amount: number;
  currency: string;
  captured: number;
  refunded: number;
  succeeded: boolean;
  failureCode: string | null;
  failureMessage: string | null;
  authorizationCode: string | null;
  networkTransactionId: string | null;
  threeDs: { flow: 'frictionless' | 'challenge'; result: 'authenticated' | 'attempt_acknowledged' } | null;
  created: number;
}

export interface IntentState {
  id: string;
  amount: number;
  currency: string;
  captureMethod: 'automatic' | 'manual';
  status: string;
  metadata: Record<string, string>;
  paymentMethod: string | null;
  chargeId: string | null;
  lastError: Record<string, string> | null;
  redirectUrl: string | null;
  returnUrl: string | null;
  cancellationReason: string | null;
  canceledAt: number | null;
  /** The network transaction id cited on a merchant-initiated charge (`mit_exemption`). */
  citedNetworkTransactionId: string | null;
  offSession: boolean;
  created: number;
}

export interface RefundState {
  id: string;
  chargeId: string;
  intentId: string;
  amount: number;
  currency: string;
  status: 'succeeded' | 'pending' | 'failed';
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

const last4 = (number: string) => number.slice(-4);

export function paymentMethodObject(method: CardMethod, livemode: boolean): Record<string, unknown> {
  const pm = fixtureCopy('payment_method') as Record<string, unknown> & { card: Record<string, unknown> };
  Object.assign(pm, { id: method.id, created: method.created, livemode, metadata: {}, customer: null });
  pm.billing_details = {
    address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
    email: null,
    name: method.name,
    phone: null,
    tax_id: null,
  };
  Object.assign(pm.card, {
    last4: last4(method.number),
    exp_month: method.expMonth,
    exp_year: method.expYear,
    wallet: null,
    generated_from: null,
  });
  return pm;
}

export function chargeObject(charge: ChargeState, method: CardMethod | undefined, livemode: boolean) {
  const ch = fixtureCopy('charge') as Record<string, unknown> & {
    payment_method_details: { card: Record<string, unknown> };
  };
  Object.assign(ch, {
    id: charge.id,
    amount: charge.amount,
    amount_captured: charge.captured,
    amount_refunded: charge.refunded,
    captured: charge.captured > 0,
    created: charge.created,
    currency: charge.currency,
    description: null,
    failure_code: charge.failureCode,
    failure_message: charge.failureMessage,
    livemode,
    metadata: {},
    paid: charge.succeeded,
    payment_intent: charge.intentId,
    payment_method: method?.id ?? null,
    receipt_url: null,
    refunded: charge.captured > 0 && charge.refunded === charge.captured,
    refunds: { data: [], has_more: false, object: 'list', url: `/v1/charges/${charge.id}/refunds` },
    shipping: null,
    source: null,
    status: charge.succeeded ? 'succeeded' : 'failed',
    transfer_data: null,
    balance_transaction: null,
  });
  const card = ch.payment_method_details.card;
  Object.assign(card, {
    amount_authorized: charge.succeeded ? charge.amount : null,
    last4: method ? last4(method.number) : '0000',
    exp_month: method?.expMonth ?? 1,
    exp_year: method?.expYear ?? 2030,
    wallet: null,
    installments: null,
    authorization_code: charge.authorizationCode,
    network_transaction_id: charge.networkTransactionId,
    three_d_secure: charge.threeDs
      ? {
          authentication_flow: charge.threeDs.flow,
          electronic_commerce_indicator: charge.threeDs.result === 'authenticated' ? '05' : '06',
          exemption_indicator: null,
          result: charge.threeDs.result,
          result_reason: null,
          transaction_id: 'b7d7c3a4-0f7e-4a66-9a3c-3ds-double',
          version: '2.2.0',
        }
      : null,
  });
  return ch;
}

/** `latest_charge`: the charge object when expanded, its id otherwise. */
export function intentObject(
  intent: IntentState,
  latestCharge: Record<string, unknown> | string | null,
  livemode: boolean,
): Record<string, unknown> {
  const pi = fixtureCopy('payment_intent');
  const capturable = intent.status === 'requires_capture' ? intent.amount : 0;
  const charge = typeof latestCharge === 'object' ? latestCharge : null;
  Object.assign(pi, {
    id: intent.id,
    amount: intent.amount,
    amount_capturable: capturable,
    amount_received: intent.status === 'succeeded' ? ((charge?.amount_captured as number) ?? intent.amount) : 0,
    automatic_payment_methods: null,
    canceled_at: intent.canceledAt,
    cancellation_reason: intent.cancellationReason,
    capture_method: intent.captureMethod,
    client_secret: `${intent.id}_secret_double`,
    confirmation_method: 'automatic',
    created: intent.created,
    currency: intent.currency,
    last_payment_error: intent.lastError,
    latest_charge: latestCharge,
    livemode,
    metadata: intent.metadata,
    next_action: intent.redirectUrl
      ? { type: 'redirect_to_url', redirect_to_url: { return_url: intent.returnUrl, url: intent.redirectUrl } }
      : null,
    payment_method: intent.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    processing: null,
    shipping: null,
    status: intent.status,
    transfer_data: null,
    managed_payments: null,
  });
  return pi;
}

/** Stripe.Refund has no `livemode` member. */
export function refundObject(refund: RefundState): Record<string, unknown> {
  const re = fixtureCopy('refund');
  Object.assign(re, {
    id: refund.id,
    amount: refund.amount,
    charge: refund.chargeId,
    created: refund.created,
    currency: refund.currency,
    metadata: refund.metadata,
    payment_intent: refund.intentId,
    reason: refund.reason,
    status: refund.status,
    ...(refund.status === 'failed' ? { failure_reason: 'expired_or_canceled_card' } : {}),
  });
  return re;
}

export function disputeObject(charge: ChargeState, id: string, status: string, created: number) {
  const dp = fixtureCopy('dispute');
  Object.assign(dp, {
    id,
    amount: charge.captured,
    charge: charge.id,
    currency: charge.currency,
    created,
    payment_intent: charge.intentId,
    reason: 'fraudulent',
    status,
  });
  return dp;
}
