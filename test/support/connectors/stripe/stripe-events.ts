import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { ProviderNotification } from '../../../../apps/payments/src/connector/provider-connector';
import {
  chargeObject,
  disputeObject,
  intentObject,
  refundObject,
  type CardMethod,
  type ChargeState,
  type IntentState,
  type RefundState,
} from './stripe-objects';
import { shapeViolations } from './stripe-shape';

export interface EventSources {
  intent: IntentState;
  charge: ChargeState | undefined;
  method: CardMethod | undefined;
  refunds: RefundState[];
  livemode: boolean;
}

/** The Stripe event type the double sends for each of our notification kinds. */
function eventType(kind: ProviderNotification['kind'], success: boolean, intent: IntentState): string {
  switch (kind) {
    case 'authorisation':
      if (!success) return 'payment_intent.payment_failed';
      // A manual-capture PaymentIntent is authorized when its amount becomes capturable.
      return intent.captureMethod === 'manual'
        ? 'payment_intent.amount_capturable_updated'
        : 'payment_intent.succeeded';
    case 'capture':
      return 'charge.captured';
    case 'refund':
      return 'charge.refunded';
    case 'refund_failed':
      return 'refund.failed';
    case 'cancellation':
      return 'payment_intent.canceled';
    case 'chargeback':
      return 'charge.dispute.created';
    case 'chargeback_reversed':
      return 'charge.dispute.closed';
    case 'capture_failed':
      // A capture is answered in its own call (PaymentIntent `succeeded` or an error); Stripe has no such event.
      throw new Error('Stripe sends no capture-failure event');
    default:
      return 'payment_intent.created';
  }
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * One signed event as Stripe POSTs it (`Stripe-Signature` from the package's own `generateTestHeaderString`),
 * and the shape violations of its body against fixtures3.json's `event` and the object it carries.
 */
export function signedEvent(
  kind: ProviderNotification['kind'],
  sources: EventSources,
  secret: string,
  options: { success?: boolean; amountValue?: number; modificationReference?: string },
): { rawBody: Buffer; headers: Record<string, string>; violations: string[] } {
  const success = options.success ?? true;
  const { intent, method, livemode } = sources;
  const type = eventType(kind, success, intent);
  const created = Math.floor(Date.now() / 1000);
  let object: Record<string, unknown>;
  if (type.startsWith('payment_intent.')) {
    const failed: IntentState =
      type === 'payment_intent.payment_failed' && !intent.lastError
        ? { ...intent, lastError: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' } }
        : intent;
    object = intentObject(failed, intent.chargeId, livemode);
  } else {
    const charge = sources.charge;
    if (!charge) throw new Error(`PaymentIntent ${intent.id} has no charge to send ${type} about`);
    const amount = options.amountValue;
    if (type === 'refund.failed') {
      const known = sources.refunds.find((r) => r.id === options.modificationReference);
      const refund: RefundState = {
        ...(known ?? { id: options.modificationReference ?? id('re'), reason: null, metadata: {}, created }),
        chargeId: charge.id,
        intentId: intent.id,
        amount: amount ?? known?.amount ?? charge.captured,
        currency: charge.currency,
        status: 'failed',
      };
      object = refundObject(refund);
    } else if (type.startsWith('charge.dispute.')) {
      const status = type === 'charge.dispute.closed' ? (success ? 'won' : 'lost') : 'needs_response';
      object = disputeObject(charge, options.modificationReference ?? id('dp'), status, created);
    } else {
      const state: ChargeState =
        type === 'charge.captured'
          ? { ...charge, captured: amount ?? charge.captured }
          : { ...charge, refunded: amount ?? charge.refunded };
      object = chargeObject(state, method, livemode);
      if (type === 'charge.refunded') {
        const refunds = sources.refunds.filter((r) => r.chargeId === charge.id).reverse();
        (object.refunds as { data: unknown[] }).data = refunds.map((r) => refundObject(r));
      }
    }
  }
  const event = {
    api_version: Stripe.API_VERSION,
    created,
    data: { object },
    id: id('evt'),
    livemode,
    object: 'event',
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
  const payload = JSON.stringify(event, null, 2);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return {
    rawBody: Buffer.from(payload),
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    violations: shapeViolations(event, 'event'),
  };
}
