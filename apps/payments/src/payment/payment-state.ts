import { EventType, EventTypes, PaymentStatus } from '@app/contracts';
import { DomainError } from '@app/errors';

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

interface Transition {
  from: readonly PaymentState[];
  to: PaymentStatus;
  event: EventType;
  /** For the INVALID_STATE message: "Cannot <verb> a captured payment". */
  verb: string;
}

/**
 * The one table of payment state changes (SPEC "States and transitions" + DECISIONS §3). Every handler asks
 * `transition()`; nothing assigns a status by hand. A partial refund is a change too: the status stays
 * `captured` and `payment.refunded` is emitted.
 */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentTrigger, Transition>> = {
  approve_authorization: {
    from: ['new', 'pending_3ds', 'pending_action'],
    to: 'authorized',
    event: EventTypes.paymentAuthorized,
    verb: 'authorize',
  },
  approve_purchase: {
    from: ['new', 'pending_3ds', 'pending_action'],
    to: 'captured',
    event: EventTypes.paymentCaptured,
    verb: 'approve',
  },
  decline: { from: ['new', 'pending_3ds'], to: 'declined', event: EventTypes.paymentRefused, verb: 'decline' },
  fail: { from: ['new', 'pending_3ds', 'pending_action'], to: 'failed', event: EventTypes.paymentFailed, verb: 'fail' },
  require_challenge: { from: ['new'], to: 'pending_3ds', event: EventTypes.paymentPending, verb: 'challenge' },
  require_action: { from: ['new'], to: 'pending_action', event: EventTypes.paymentPending, verb: 'hold' },
  capture: { from: ['authorized'], to: 'captured', event: EventTypes.paymentCaptured, verb: 'capture' },
  refund_partial: { from: ['captured'], to: 'captured', event: EventTypes.paymentRefunded, verb: 'refund' },
  refund_full: { from: ['captured'], to: 'refunded', event: EventTypes.paymentRefunded, verb: 'refund' },
  cancel: { from: ['authorized'], to: 'cancelled', event: EventTypes.paymentCancelled, verb: 'cancel' },
  expire_hold: { from: ['authorized'], to: 'cancelled', event: EventTypes.paymentCancelled, verb: 'expire' },
  // A 3DS session or an APM voucher that ran out without an answer.
  abandon: {
    from: ['pending_3ds', 'pending_action'],
    to: 'cancelled',
    event: EventTypes.paymentCancelled,
    verb: 'abandon',
  },
};

export function canTransition(from: PaymentState, trigger: PaymentTrigger): boolean {
  return PAYMENT_TRANSITIONS[trigger].from.includes(from);
}

/** The status after `trigger`, and the event that change emits; 409 INVALID_STATE when the table forbids it. */
export function transition(from: PaymentState, trigger: PaymentTrigger): { to: PaymentStatus; event: EventType } {
  const t = PAYMENT_TRANSITIONS[trigger];
  if (!t.from.includes(from)) {
    throw DomainError.invalidState(`Cannot ${t.verb} a payment that is ${from === 'new' ? 'not created' : from}`);
  }
  return { to: t.to, event: t.event };
}
