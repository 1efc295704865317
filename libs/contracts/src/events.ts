import type { Environment } from './context';

/** The JetStream stream that captures every domain event (docs/events.md). */
export const EVENTS_STREAM = 'EVENTS';

/** Every domain event type; the NATS subject of an event is its type. */
export const EventTypes = {
  paymentAuthorized: 'payment.authorized',
  paymentCaptured: 'payment.captured',
  paymentRefused: 'payment.refused',
  paymentFailed: 'payment.failed',
  paymentCancelled: 'payment.cancelled',
  paymentRefunded: 'payment.refunded',
  paymentPending: 'payment.pending',
  paymentCaptureFailed: 'payment.capture_failed',
  paymentRefundFailed: 'payment.refund_failed',
  paymentCancelFailed: 'payment.cancel_failed',
  paymentChargedBack: 'payment.charged_back',
  paymentMethodUpdated: 'payment_method.updated',
  paymentMethodExpiring: 'payment_method.expiring',
  paymentLinkCreated: 'payment_link.created',
  paymentLinkUsed: 'payment_link.used',
  paymentLinkExpired: 'payment_link.expired',
  paymentLinkCancelled: 'payment_link.cancelled',
  paymentLinkAttemptsBlocked: 'payment_link.attempts_blocked',
  subscriptionCreated: 'subscription.created',
  subscriptionActivated: 'subscription.activated',
  subscriptionTrialEnded: 'subscription.trial_ended',
  subscriptionRenewed: 'subscription.renewed',
  subscriptionPaymentFailed: 'subscription.payment_failed',
  subscriptionPastDue: 'subscription.past_due',
  subscriptionSuspended: 'subscription.suspended',
  subscriptionReactivated: 'subscription.reactivated',
  subscriptionPaused: 'subscription.paused',
  subscriptionResumed: 'subscription.resumed',
  subscriptionCancelled: 'subscription.cancelled',
  subscriptionCompleted: 'subscription.completed',
  subscriptionPlanChanged: 'subscription.plan_changed',
  subscriptionPlanChangeScheduled: 'subscription.plan_change_scheduled',
  subscriptionPaymentMethodUpdated: 'subscription.payment_method_updated',
  subscriptionRenewalParked: 'subscription.renewal_parked',
  invoiceCreated: 'invoice.created',
  invoicePaid: 'invoice.paid',
  invoiceFailed: 'invoice.failed',
  invoiceVoided: 'invoice.voided',
  invoicePaymentRecovered: 'invoice.payment_recovered',
} as const;

export type EventType = (typeof EventTypes)[keyof typeof EventTypes];
export const ALL_EVENT_TYPES: readonly EventType[] = Object.values(EventTypes);

/** Subjects of the EVENTS stream: one wildcard per aggregate, derived from the catalogue. */
export const EVENT_STREAM_SUBJECTS: readonly string[] = [
  ...new Set(ALL_EVENT_TYPES.map((t) => `${t.split('.')[0]}.>`)),
];

/** The envelope every event is published in, on NATS and to merchant webhooks. */
export interface EventEnvelope<T = Record<string, unknown>> {
  id: string;
  type: EventType;
  createdAt: string;
  environment: Environment;
  merchantCode: string;
  data: T;
}

export const isEventType = (value: unknown): value is EventType =>
  typeof value === 'string' && (ALL_EVENT_TYPES as readonly string[]).includes(value);

/** The object an event's `data` carries: the aggregate after the change, with its `metadata`. */
export type EventAggregate = 'payment' | 'payment_link' | 'payment_method' | 'subscription' | 'invoice';

/**
 * Webhook-only event type: `POST /v1/webhook-endpoint/{id}/test` sends it. It never goes through NATS and is
 * not a subscribable `events[]` value.
 */
export const WEBHOOK_PING_EVENT = 'ping';
export type WebhookEventType = EventType | typeof WEBHOOK_PING_EVENT;

/** `events: ["*"]` subscribes an endpoint to every event type, present and future. */
export const WEBHOOK_ANY_EVENT = '*';

/** `data` of a `ping` delivery. */
export interface WebhookPingData {
  endpointId: string;
  message: string;
}

/** What a webhook receiver gets: the event envelope, or a `ping`. */
export type WebhookEnvelope<T = object> = Omit<EventEnvelope<T>, 'type'> & {
  type: WebhookEventType;
};

/** HTTP headers of every webhook delivery. */
export const WebhookHeaders = {
  id: 'Webhook-Id',
  signature: 'Webhook-Signature',
  /** The provider's own format, which its e-commerce plugins verify: `sha256=<hex HMAC-SHA256(secret, raw body)>`. */
  providerSignature: 'X-Therius-Signature',
} as const;
