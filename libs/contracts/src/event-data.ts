import { ApiProperty } from '@nestjs/swagger';
import { InvoiceView } from './billing/invoice.dto';
import { SubscriptionView } from './billing/subscription.dto';
import { EventEnvelope, EventType } from './events';
import { PaymentLinkResponse } from './payment-links/payment-link.dto';
import { PaymentResponse } from './payments/payment.dto';
import { PaymentMethodEventView } from './payments/token.dto';

export const ATTEMPTS_BLOCK_SCOPES = ['address', 'link'] as const;

/** Which checkout attempts of a payment link are refused after too many declines, and for how long. */
export class AttemptsBlockedView {
  @ApiProperty({ enum: ATTEMPTS_BLOCK_SCOPES, description: 'The whole link, or one payer address on it' })
  scope: (typeof ATTEMPTS_BLOCK_SCOPES)[number];
  @ApiProperty({ description: 'Declines within the window that closed it' }) declines: number;
  @ApiProperty() windowSeconds: number;
  @ApiProperty({ description: 'When new attempts are accepted again' }) retryAfterSeconds: number;
}

/** `data` of `payment_link.attempts_blocked`: the link, and the block. */
export class PaymentLinkAttemptsBlockedData extends PaymentLinkResponse {
  @ApiProperty({ type: AttemptsBlockedView }) block: AttemptsBlockedView;
}

/**
 * The class of every event type's `data`, whose name is also its OpenAPI schema. Declared per type, so a type
 * added to the catalogue does not compile until its data is named here; clients/typescript/src/generated/events.ts
 * is generated from this table.
 */
export const EventDataClasses = {
  'payment.authorized': PaymentResponse,
  'payment.captured': PaymentResponse,
  'payment.refused': PaymentResponse,
  'payment.failed': PaymentResponse,
  'payment.cancelled': PaymentResponse,
  'payment.refunded': PaymentResponse,
  'payment.pending': PaymentResponse,
  'payment.capture_failed': PaymentResponse,
  'payment.refund_failed': PaymentResponse,
  'payment.cancel_failed': PaymentResponse,
  'payment.charged_back': PaymentResponse,
  'payment_method.updated': PaymentMethodEventView,
  'payment_method.expiring': PaymentMethodEventView,
  'payment_link.created': PaymentLinkResponse,
  'payment_link.used': PaymentLinkResponse,
  'payment_link.expired': PaymentLinkResponse,
  'payment_link.cancelled': PaymentLinkResponse,
  'payment_link.attempts_blocked': PaymentLinkAttemptsBlockedData,
  'subscription.created': SubscriptionView,
  'subscription.activated': SubscriptionView,
  'subscription.trial_ended': SubscriptionView,
  'subscription.renewed': SubscriptionView,
  'subscription.payment_failed': SubscriptionView,
  'subscription.past_due': SubscriptionView,
  'subscription.suspended': SubscriptionView,
  'subscription.reactivated': SubscriptionView,
  'subscription.paused': SubscriptionView,
  'subscription.resumed': SubscriptionView,
  'subscription.cancelled': SubscriptionView,
  'subscription.completed': SubscriptionView,
  'subscription.plan_changed': SubscriptionView,
  'subscription.plan_change_scheduled': SubscriptionView,
  'subscription.payment_method_updated': SubscriptionView,
  'subscription.renewal_parked': SubscriptionView,
  'invoice.created': InvoiceView,
  'invoice.paid': InvoiceView,
  'invoice.failed': InvoiceView,
  'invoice.voided': InvoiceView,
  'invoice.payment_recovered': InvoiceView,
} as const satisfies { [K in EventType]: abstract new (...args: never[]) => object };

/** The `data` of one event type. */
export type EventData<T extends EventType> = InstanceType<(typeof EventDataClasses)[T]>;

/** One event with its type's data: `switch (e.type)` narrows `e.data`. */
export type DomainEvent<T extends EventType = EventType> = {
  [K in T]: Omit<EventEnvelope<EventData<K>>, 'type'> & { type: K };
}[T];

/** Every class some event's `data` is, once each (for the OpenAPI document's schemas). */
export const EVENT_DATA_CLASSES = [...new Set(Object.values(EventDataClasses))];

/**
 * An event handler that runs `handle` on events of `type` only, with `data` typed, and ignores the rest:
 * `new DurableEventConsumer(nc, onEvent('subscription.cancelled', (e) => note(e.data.cancelledAt)), …)`.
 * Several types: `onEvents({ 'invoice.paid': …, 'invoice.failed': … })`.
 */
export function onEvent<T extends EventType, R>(
  type: T,
  handle: (event: DomainEvent<T>) => R | Promise<R>,
): (event: EventEnvelope) => Promise<R | undefined> {
  return onEvents({ [type]: handle } as EventHandlers<R>);
}

export type EventHandlers<R = unknown> = { [K in EventType]?: (event: DomainEvent<K>) => R | Promise<R> };

/** An event handler that dispatches on `type` to the handler named for it; events without one are ignored. */
export function onEvents<R>(handlers: EventHandlers<R>): (event: EventEnvelope) => Promise<R | undefined> {
  return async (event) => {
    const handle = Object.hasOwn(handlers, event.type) ? handlers[event.type] : undefined;
    return handle ? (handle as (e: DomainEvent) => R | Promise<R>)(event as unknown as DomainEvent) : undefined;
  };
}
