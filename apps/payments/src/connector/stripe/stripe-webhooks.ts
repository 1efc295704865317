import Stripe from 'stripe';
import { WebhookRejected, type ConnectorConnection, type ProviderNotification } from '../provider-connector';
import { fromStripeAmount } from './stripe-mapping';
import { stripeRefusal } from './stripe-refusals';

const idOf = (value: string | { id: string } | null | undefined): string =>
  typeof value === 'string' ? value : (value?.id ?? '');

/**
 * Verifies the `Stripe-Signature` header with the connection's signing secret (the package's
 * `webhooks.constructEvent`: HMAC-SHA256 over `timestamp.body`, at most 5 minutes older than `nowMs`, the
 * injected clock in milliseconds as the package takes it) and maps the event. One Stripe event is one
 * notification; its `evt_…` id is the de-duplication key.
 */
export function parseStripeWebhook(
  connection: ConnectorConnection,
  rawBody: Buffer,
  headers: Readonly<Record<string, string | undefined>>,
  nowMs: number,
): ProviderNotification[] {
  const secret = connection.credentials.webhookSecret;
  if (!secret) throw new WebhookRejected(`Stripe connection ${connection.connectionCode} has no webhook secret`);
  const signature = Object.entries(headers).find(([name]) => name.toLowerCase() === 'stripe-signature')?.[1];
  if (!signature) throw new WebhookRejected('No Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, secret, undefined, undefined, nowMs);
  } catch (error) {
    throw new WebhookRejected(`Stripe-Signature does not verify: ${(error as Error).message}`);
  }
  return [notification(event)];
}

function notification(event: Stripe.Event): ProviderNotification {
  const base = { eventId: event.id, occurredAt: new Date(event.created * 1000), providerEvent: event.type };
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.amount_capturable_updated':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled': {
      const intent = event.data.object;
      const common = {
        ...base,
        acquirerReference: intent.id,
        merchantReference: intent.metadata?.reference,
        amount: fromStripeAmount(intent.amount, intent.currency),
      };
      if (event.type === 'payment_intent.canceled') {
        return { ...common, kind: 'cancellation', success: true, reason: intent.cancellation_reason ?? undefined };
      }
      if (event.type === 'payment_intent.payment_failed') {
        const error = intent.last_payment_error;
        return {
          ...common,
          kind: 'authorisation',
          success: false,
          refusalCode: stripeRefusal(error?.decline_code, error?.code, error?.message),
          reason: error?.message,
        };
      }
      // A manual-capture PaymentIntent succeeds when it is captured; an automatic one when it is paid.
      const captured = event.type === 'payment_intent.succeeded' && intent.capture_method === 'manual';
      return captured
        ? { ...common, kind: 'capture', success: true, modificationReference: idOf(intent.latest_charge) }
        : { ...common, kind: 'authorisation', success: true };
    }
    case 'charge.captured':
    case 'charge.refunded': {
      const charge = event.data.object;
      const common = { ...base, acquirerReference: idOf(charge.payment_intent), success: true };
      if (event.type === 'charge.captured') {
        return {
          ...common,
          kind: 'capture',
          modificationReference: charge.id,
          amount: fromStripeAmount(charge.amount_captured, charge.currency),
        };
      }
      // `amount` is the charge's total refunded so far; each refund's own amount is on refund.* events.
      return {
        ...common,
        kind: 'refund',
        modificationReference: charge.refunds?.data[0]?.id ?? charge.id,
        amount: fromStripeAmount(charge.amount_refunded, charge.currency),
      };
    }
    case 'refund.failed':
    case 'charge.refund.updated': {
      const refund = event.data.object;
      const failed = refund.status === 'failed';
      return {
        ...base,
        kind: event.type === 'refund.failed' || failed ? 'refund_failed' : 'other',
        success: !(event.type === 'refund.failed' || failed),
        acquirerReference: idOf(refund.payment_intent),
        modificationReference: refund.id,
        merchantReference: refund.metadata?.reference,
        amount: fromStripeAmount(refund.amount, refund.currency),
        reason: refund.failure_reason ?? undefined,
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const kind =
        event.type === 'charge.dispute.created'
          ? 'chargeback'
          : dispute.status === 'won'
            ? 'chargeback_reversed'
            : 'other';
      return {
        ...base,
        kind,
        success: true,
        acquirerReference: idOf(dispute.payment_intent),
        modificationReference: dispute.id,
        amount: fromStripeAmount(dispute.amount, dispute.currency),
        reason: event.type === 'charge.dispute.closed' ? `${dispute.reason}: ${dispute.status}` : dispute.reason,
      };
    }
    default: {
      const object = event.data.object as { id?: string };
      return { ...base, kind: 'other', success: true, acquirerReference: object.id ?? '' };
    }
  }
}
