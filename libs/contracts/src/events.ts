import type { Environment } from './context';

/** The JetStream stream that captures every domain event (DECISIONS §6). */
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
  paymentLinkCreated: 'payment_link.created',
  paymentLinkUsed: 'payment_link.used',
  paymentLinkExpired: 'payment_link.expired',
  paymentLinkCancelled: 'payment_link.cancelled',
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
