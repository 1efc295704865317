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
export type EventAggregate = 'payment' | 'payment_link' | 'subscription' | 'invoice';

/**
 * What each event means (docs/events.md lists the same). `data` is always the aggregate
 * named by the subject's first token, as the service's GET answer for it would show it after the change.
 */
export const EVENT_CATALOGUE: Readonly<Record<EventType, string>> = {
  'payment.authorized': 'Funds are held (authorization approved); capture or cancel follows.',
  'payment.captured': 'Money was captured (a purchase, or a capture of an authorization).',
  'payment.refused': 'The acquirer declined the payment (the provider calls a decline "refused").',
  'payment.failed': 'The payment could not be processed (technical failure, not a decline).',
  'payment.cancelled': 'An authorization was cancelled and the hold released.',
  'payment.refunded': 'A refund was made (full or partial).',
  'payment.pending': 'The payment waits for the shopper (3DS challenge) or the acquirer.',
  'payment.capture_failed': 'The acquirer could not process a capture (a processing error); nothing changed.',
  'payment.refund_failed': 'The acquirer could not process a refund (a processing error); nothing changed.',
  'payment.cancel_failed': 'The acquirer could not process a cancel (a processing error); nothing changed.',
  'payment_link.created': 'A payment link was created.',
  'payment_link.used': 'A shopper paid through the link.',
  'payment_link.expired': 'The link passed its expiry unused.',
  'payment_link.cancelled': 'The merchant cancelled the link.',
  'payment_link.attempts_blocked':
    'Too many declined payments on the link or from one payer address: new checkout attempts are refused for a while (`data.block` says which, and for how long).',
  'subscription.created': 'A subscription was created (trialing, pending start or active).',
  'subscription.activated': 'The subscription became active (first charge succeeded or trial converted).',
  'subscription.trial_ended': 'The trial period ended.',
  'subscription.renewed': 'A new billing period started and its invoice was paid.',
  'subscription.payment_failed': 'A charge for the subscription was declined; dunning retries follow.',
  'subscription.past_due': 'The subscription is past due (unpaid invoice, retries pending).',
  'subscription.suspended': 'Dunning gave up: the subscription is suspended.',
  'subscription.reactivated': 'A suspended or past-due subscription was paid and is active again.',
  'subscription.paused': 'The merchant paused the subscription.',
  'subscription.resumed': 'A paused subscription resumed.',
  'subscription.cancelled': 'The subscription was cancelled (now or at period end).',
  'subscription.completed': 'A fixed-term subscription ran its last period.',
  'subscription.plan_changed': 'The plan changed (upgrade now, or a scheduled change took effect).',
  'subscription.plan_change_scheduled': 'A plan change was scheduled for the period end.',
  'subscription.payment_method_updated': 'The card or token that pays the subscription changed.',
  'subscription.renewal_parked':
    'A renewal failed for a reason retrying cannot change (`data.renewalParked.reason` says which): renewals of the subscription stop until it is fixed and retried.',
  'invoice.created': 'An invoice was issued for a period.',
  'invoice.paid': 'An invoice was paid.',
  'invoice.failed': 'A charge for an invoice was declined.',
  'invoice.voided': 'An invoice was voided.',
};

export const aggregateOf = (type: EventType): EventAggregate => type.split('.')[0] as EventAggregate;

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
