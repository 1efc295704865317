import { EventType, EventTypes, PAYMENT_STATUSES, PaymentStatus } from '@app/contracts';
import { defineMachine } from '@app/state-machine';

/**
 * A stored payment's status: one of the API's, or `reserved`, the state a payment is created in while its
 * acquirer call is in flight. A reserved row holds its order and payment codes, and no read answers it (GET,
 * list, operations: 404); recording the acquirer's answer moves it to its first API status.
 */
export type PaymentState = PaymentStatus | 'reserved';

export type PaymentTrigger =
  | 'approve_authorization'
  | 'approve_purchase'
  | 'decline'
  | 'fail'
  | 'require_challenge'
  | 'require_action'
  | 'capture'
  | 'refund_partial'
  | 'refund_full'
  | 'cancel'
  | 'expire_hold'
  | 'abandon'
  | 'reverse_capture'
  | 'reverse_refund'
  | 'cancel_at_provider'
  | 'charge_back';

/**
 * The one table of payment state changes. Every handler asks `transition()`; nothing assigns a status by
 * hand. Each move emits one event. A partial refund is a change too: the status stays `captured` and
 * `payment.refunded` is emitted.
 */
export const PAYMENT_MACHINE = defineMachine<PaymentState, PaymentTrigger, EventType>({
  name: 'payment',
  states: ['reserved', ...PAYMENT_STATUSES],
  initial: 'reserved',
  moves: {
    approve_authorization: {
      from: ['reserved', 'pending_3ds', 'pending_action'],
      to: 'authorized',
      emits: [EventTypes.paymentAuthorized],
      verb: 'authorize',
    },
    approve_purchase: {
      from: ['reserved', 'pending_3ds', 'pending_action'],
      to: 'captured',
      emits: [EventTypes.paymentCaptured],
      verb: 'approve',
    },
    decline: { from: ['reserved', 'pending_3ds'], to: 'declined', emits: [EventTypes.paymentRefused], verb: 'decline' },
    fail: {
      from: ['reserved', 'pending_3ds', 'pending_action'],
      to: 'failed',
      emits: [EventTypes.paymentFailed],
      verb: 'fail',
    },
    require_challenge: { from: ['reserved'], to: 'pending_3ds', emits: [EventTypes.paymentPending], verb: 'challenge' },
    require_action: { from: ['reserved'], to: 'pending_action', emits: [EventTypes.paymentPending], verb: 'hold' },
    capture: { from: ['authorized'], to: 'captured', emits: [EventTypes.paymentCaptured], verb: 'capture' },
    refund_partial: { from: ['captured'], to: 'captured', emits: [EventTypes.paymentRefunded], verb: 'refund' },
    refund_full: { from: ['captured'], to: 'refunded', emits: [EventTypes.paymentRefunded], verb: 'refund' },
    cancel: { from: ['authorized'], to: 'cancelled', emits: [EventTypes.paymentCancelled], verb: 'cancel' },
    expire_hold: { from: ['authorized'], to: 'cancelled', emits: [EventTypes.paymentCancelled], verb: 'expire' },
    // A 3DS session or an APM voucher that ran out without an answer.
    abandon: {
      from: ['pending_3ds', 'pending_action'],
      to: 'cancelled',
      emits: [EventTypes.paymentCancelled],
      verb: 'abandon',
    },
    // The provider's webhook reports what it did after answering (docs/connectors.md): a capture or refund it
    // had accepted failed after all, an authorization it cancelled itself, a chargeback.
    reverse_capture: {
      from: ['captured'],
      to: 'authorized',
      emits: [EventTypes.paymentCaptureFailed],
      verb: 'reverse the capture of',
    },
    reverse_refund: {
      from: ['captured', 'refunded'],
      to: 'captured',
      emits: [EventTypes.paymentRefundFailed],
      verb: 'reverse a refund of',
    },
    cancel_at_provider: {
      from: ['authorized'],
      to: 'cancelled',
      emits: [EventTypes.paymentCancelled],
      verb: 'cancel',
    },
    charge_back: {
      from: ['captured', 'refunded'],
      to: 'charged_back',
      emits: [EventTypes.paymentChargedBack],
      verb: 'charge back',
    },
  },
  refusal: (verb, from) => `Cannot ${verb} a payment that is ${from === 'reserved' ? 'not created' : from}`,
});

/** The API's status of a recorded payment; no read answers a reserved one, so one reaching a view is a bug. */
export function apiStatus(status: PaymentState): PaymentStatus {
  if (status === 'reserved') throw new Error('A reserved payment has no API status yet');
  return status;
}

export function canTransition(from: PaymentState, trigger: PaymentTrigger): boolean {
  return PAYMENT_MACHINE.can(from, trigger);
}

/** Moves `payment` by `trigger` through the table (its status is written nowhere else) and answers the event. */
export function move(payment: { status: PaymentState }, trigger: PaymentTrigger): EventType {
  // Every move emits exactly one event.
  return PAYMENT_MACHINE.apply(payment, trigger)[0];
}

/** The status after `trigger`, and the event that change emits; 409 INVALID_STATE when the table forbids it. */
export function transition(from: PaymentState, trigger: PaymentTrigger): { to: PaymentStatus; event: EventType } {
  const { to, events } = PAYMENT_MACHINE.transition(from, trigger);
  // No move leads back to 'reserved', and every move emits exactly one event.
  return { to: to as PaymentStatus, event: events[0] };
}
