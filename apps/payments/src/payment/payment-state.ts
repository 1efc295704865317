import { EventType, EventTypes, PAYMENT_STATUSES, PaymentStatus } from '@app/contracts';
import { defineMachine } from '@app/state-machine';

/** A payment that is being created has no status yet. */
export type PaymentState = PaymentStatus | 'new';

/**
 * The stored status of a payment whose acquirer call is in flight: the row holds its order and payment codes,
 * and no read answers it (GET, list, operations: 404). Recording gives it its first real status through the
 * table below, from 'new'.
 */
export const RESERVED = 'reserved' as PaymentStatus;

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
  | 'abandon';

/**
 * The one table of payment state changes. Every handler asks `transition()`; nothing assigns a status by
 * hand. Each move emits one event. A partial refund is a change too: the status stays `captured` and
 * `payment.refunded` is emitted.
 */
export const PAYMENT_MACHINE = defineMachine<PaymentState, PaymentTrigger, EventType>({
  name: 'payment',
  states: ['new', ...PAYMENT_STATUSES],
  initial: 'new',
  moves: {
    approve_authorization: {
      from: ['new', 'pending_3ds', 'pending_action'],
      to: 'authorized',
      emits: [EventTypes.paymentAuthorized],
      verb: 'authorize',
    },
    approve_purchase: {
      from: ['new', 'pending_3ds', 'pending_action'],
      to: 'captured',
      emits: [EventTypes.paymentCaptured],
      verb: 'approve',
    },
    decline: { from: ['new', 'pending_3ds'], to: 'declined', emits: [EventTypes.paymentRefused], verb: 'decline' },
    fail: {
      from: ['new', 'pending_3ds', 'pending_action'],
      to: 'failed',
      emits: [EventTypes.paymentFailed],
      verb: 'fail',
    },
    require_challenge: { from: ['new'], to: 'pending_3ds', emits: [EventTypes.paymentPending], verb: 'challenge' },
    require_action: { from: ['new'], to: 'pending_action', emits: [EventTypes.paymentPending], verb: 'hold' },
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
  },
  refusal: (verb, from) => `Cannot ${verb} a payment that is ${from === 'new' ? 'not created' : from}`,
});

export function canTransition(from: PaymentState, trigger: PaymentTrigger): boolean {
  return PAYMENT_MACHINE.can(from, trigger);
}

/** The status after `trigger`, and the event that change emits; 409 INVALID_STATE when the table forbids it. */
export function transition(from: PaymentState, trigger: PaymentTrigger): { to: PaymentStatus; event: EventType } {
  const { to, events } = PAYMENT_MACHINE.transition(from, trigger);
  // No move leads back to 'new', and every move emits exactly one event.
  return { to: to as PaymentStatus, event: events[0] };
}
