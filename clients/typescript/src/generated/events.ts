// Generated from libs/contracts by scripts/event-types.js; do not edit. Regenerate: node scripts/event-types.js
import type { components } from './api';

type Schemas = components['schemas'];

/** Every event type of the catalogue; the NATS subject of an event is its type. */
export const EVENT_TYPES = [
  'payment.authorized',
  'payment.captured',
  'payment.refused',
  'payment.failed',
  'payment.cancelled',
  'payment.refunded',
  'payment.pending',
  'payment.capture_failed',
  'payment.refund_failed',
  'payment.cancel_failed',
  'payment.charged_back',
  'payment_method.updated',
  'payment_method.expiring',
  'payment_link.created',
  'payment_link.used',
  'payment_link.expired',
  'payment_link.cancelled',
  'payment_link.attempts_blocked',
  'subscription.created',
  'subscription.activated',
  'subscription.trial_ended',
  'subscription.renewed',
  'subscription.payment_failed',
  'subscription.past_due',
  'subscription.suspended',
  'subscription.reactivated',
  'subscription.paused',
  'subscription.resumed',
  'subscription.cancelled',
  'subscription.completed',
  'subscription.plan_changed',
  'subscription.plan_change_scheduled',
  'subscription.payment_method_updated',
  'subscription.renewal_parked',
  'invoice.created',
  'invoice.paid',
  'invoice.failed',
  'invoice.voided',
  'invoice.payment_recovered',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The provider's names of a payment's codes and id, which its plugins read, in the data of every payment event. */
export type ProviderPaymentNames = { payment_code: string; order_code: string; payment_id: string };

/** The `data` of each event type: the object after the change. */
export interface EventDataMap {
  'payment.authorized': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.captured': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.refused': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.failed': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.cancelled': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.refunded': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.pending': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.capture_failed': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.refund_failed': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.cancel_failed': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment.charged_back': Schemas['PaymentResponse'] & ProviderPaymentNames;
  'payment_method.updated': Schemas['PaymentMethodEventView'];
  'payment_method.expiring': Schemas['PaymentMethodEventView'];
  'payment_link.created': Schemas['PaymentLinkResponse'];
  'payment_link.used': Schemas['PaymentLinkResponse'];
  'payment_link.expired': Schemas['PaymentLinkResponse'];
  'payment_link.cancelled': Schemas['PaymentLinkResponse'];
  'payment_link.attempts_blocked': Schemas['PaymentLinkAttemptsBlockedData'];
  'subscription.created': Schemas['SubscriptionView'];
  'subscription.activated': Schemas['SubscriptionView'];
  'subscription.trial_ended': Schemas['SubscriptionView'];
  'subscription.renewed': Schemas['SubscriptionView'];
  'subscription.payment_failed': Schemas['SubscriptionView'];
  'subscription.past_due': Schemas['SubscriptionView'];
  'subscription.suspended': Schemas['SubscriptionView'];
  'subscription.reactivated': Schemas['SubscriptionView'];
  'subscription.paused': Schemas['SubscriptionView'];
  'subscription.resumed': Schemas['SubscriptionView'];
  'subscription.cancelled': Schemas['SubscriptionView'];
  'subscription.completed': Schemas['SubscriptionView'];
  'subscription.plan_changed': Schemas['SubscriptionView'];
  'subscription.plan_change_scheduled': Schemas['SubscriptionView'];
  'subscription.payment_method_updated': Schemas['SubscriptionView'];
  'subscription.renewal_parked': Schemas['SubscriptionView'];
  'invoice.created': Schemas['InvoiceView'];
  'invoice.paid': Schemas['InvoiceView'];
  'invoice.failed': Schemas['InvoiceView'];
  'invoice.voided': Schemas['InvoiceView'];
  'invoice.payment_recovered': Schemas['InvoiceView'];
}

/**
 * An event as webhook deliveries and `GET /v1/events` carry it; `type` discriminates:
 * `if (e.type === 'subscription.cancelled') e.data.cancelledAt`.
 */
export type Event<T extends EventType = EventType> = {
  [K in T]: {
    id: string;
    type: K;
    createdAt: string;
    environment: 'production' | 'sandbox';
    merchantCode: string;
    data: EventDataMap[K];
    /** The provider's name of `type`. */
    event: K;
    /** The provider's name of `createdAt`. */
    created_at: string;
  };
}[T];

/** The delivery `POST /v1/webhook-endpoint/{id}/test` sends; it is no event of the catalogue. */
export type PingEvent = Omit<Event, 'type' | 'event' | 'data'> & {
  type: 'ping';
  event: 'ping';
  data: { endpointId: string; message: string };
};

/** What a webhook receiver gets. */
export type WebhookEvent = Event | PingEvent;

/** Every error code of the API; a newer server may answer one not listed yet. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'MERCHANT_CODE_REQUIRED',
  'IDEMPOTENCY_KEY_REQUIRED',
  'SESSION_EXPIRED',
  'AUTH_MISSING',
  'AUTH_INVALID',
  'TOTP_REQUIRED',
  'PAYMENT_DECLINED',
  'AUTH_INSUFFICIENT_SCOPE',
  'MERCHANT_MISMATCH',
  'CSRF_INVALID',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'INVALID_STATE',
  'AUTHORIZATION_EXPIRED',
  'DUPLICATE_ORDER_CODE',
  'DUPLICATE_PAYMENT_CODE',
  'DUPLICATE_MERCHANT_CODE',
  'DUPLICATE_METER_CODE',
  'DUPLICATE_WEBHOOK_URL',
  'IDEMPOTENCY_IN_PROGRESS',
  'CHALLENGE_NOT_COMPLETED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'AMOUNT_EXCEEDS_AVAILABLE',
  'CURRENCY_MISMATCH',
  'INVALID_EXPONENT',
  'IDEMPOTENCY_KEY_REUSED',
  'USAGE_PERIOD_CLOSED',
  'CLOCK_BACKWARDS',
  'CLOCK_ADVANCE_TOO_FAR',
  'WEBHOOK_ENDPOINT_LIMIT',
  'NO_CONNECTION',
  'RATE_LIMITED',
  'ACCOUNT_LOCKED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
] as const;

export type KnownErrorCode = (typeof ERROR_CODES)[number];

/** An error code: the known ones complete and are checked, and an unknown future one still type-checks. */
export type ErrorCode = KnownErrorCode | (string & {});
