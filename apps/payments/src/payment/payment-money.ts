import { AmountDto, EventType, OperationStatus, PaymentStatus } from '@app/contracts';
import { DomainError } from '@app/errors';
import { Amount, AmountJson } from '@app/money';
import { CancelReason } from './payment.entity';
import { canTransition, PaymentState, PaymentTrigger, transition } from './payment-state';

/** What the money rules need to know about a payment. */
export interface PaymentSnapshot {
  status: PaymentState;
  currency: string;
  exponent: number;
  amountValue: number;
  amountCaptured: number;
  amountRefunded: number;
  holdExpiresAt: Date | null;
  cancelReason: CancelReason | null;
}

export type OperationKind = 'capture' | 'refund' | 'cancel';

/** An operation the rules allow: the transition to make, the new totals and what the Operation result says. */
export interface Decision {
  kind: OperationKind;
  trigger: PaymentTrigger;
  to: PaymentStatus;
  event: EventType;
  /** The amount this operation moves. */
  amount: AmountJson;
  amountCaptured: number;
  amountRefunded: number;
  result: OperationStatus;
}

const expired = (): DomainError =>
  new DomainError('AUTHORIZATION_EXPIRED', 'The authorization hold has expired; nothing can be captured');

function assertPositive(requested: AmountDto, what: string): void {
  if (requested.value === 0) throw DomainError.validation(`A ${what} must be of a positive amount`, 'amount.value');
}

/** The requested amount in the payment's currency: 422 CURRENCY_MISMATCH, then 422 INVALID_EXPONENT. */
function inPaymentCurrency(p: PaymentSnapshot, requested: AmountDto): Amount {
  if (requested.currency !== p.currency) {
    throw new DomainError(
      'CURRENCY_MISMATCH',
      `The payment is in ${p.currency}, got ${requested.currency}`,
      'amount.currency',
    );
  }
  return Amount.of(requested);
}

const whole = (p: PaymentSnapshot, value: number): AmountJson => ({
  currency: p.currency,
  value,
  exponent: p.exponent,
});

/** The whole authorization voided through `trigger` (a cancel, an expired hold): the totals stay. */
const voided = (
  p: PaymentSnapshot,
  trigger: 'cancel' | 'expire_hold',
  { to, event }: { to: PaymentStatus; event: EventType },
): Decision => ({
  kind: 'cancel',
  trigger,
  to,
  event,
  amount: whole(p, p.amountValue),
  amountCaptured: p.amountCaptured,
  amountRefunded: p.amountRefunded,
  result: 'cancelled',
});

/**
 * Capture: once, of an authorized payment that is not a zero-value verification, within the hold, at most
 * the authorized value. A smaller amount is a partial capture and releases the rest of the hold.
 * State is checked before amounts: an operation the state refuses is 409 whatever its amount.
 */
export function decideCapture(p: PaymentSnapshot, requested: AmountDto, now: Date): Decision {
  assertPositive(requested, 'capture');
  if (p.status === 'cancelled' && p.cancelReason === 'hold_expired') throw expired();
  if (p.status === 'authorized' && p.amountValue === 0) {
    throw DomainError.invalidState('A zero-value verification cannot be captured');
  }
  const { to, event } = transition(p.status, 'capture');
  if (p.holdExpiresAt && p.holdExpiresAt.getTime() <= now.getTime()) throw expired();
  const amount = inPaymentCurrency(p, requested);
  if (amount.value > p.amountValue) {
    throw new DomainError('AMOUNT_EXCEEDS_AVAILABLE', `At most ${p.amountValue} can be captured`, 'amount.value');
  }
  return {
    kind: 'capture',
    trigger: 'capture',
    to,
    event,
    amount: amount.toJSON(),
    amountCaptured: amount.value,
    amountRefunded: p.amountRefunded,
    result: 'captured',
  };
}

/** Refund: of a captured payment, as often as the cumulative total stays within the captured value. */
export function decideRefund(p: PaymentSnapshot, requested: AmountDto): Decision {
  assertPositive(requested, 'refund');
  transition(p.status, 'refund_partial');
  const amount = inPaymentCurrency(p, requested);
  const total = p.amountRefunded + amount.value;
  if (total > p.amountCaptured) {
    throw new DomainError(
      'AMOUNT_EXCEEDS_AVAILABLE',
      `At most ${p.amountCaptured - p.amountRefunded} can still be refunded`,
      'amount.value',
    );
  }
  const trigger: PaymentTrigger = total === p.amountCaptured ? 'refund_full' : 'refund_partial';
  const { to, event } = transition(p.status, trigger);
  return {
    kind: 'refund',
    trigger,
    to,
    event,
    amount: amount.toJSON(),
    amountCaptured: p.amountCaptured,
    amountRefunded: total,
    result: 'refunded',
  };
}

/** Cancel: voids the whole hold of an authorized payment; an amount, when sent, must be that whole amount. */
export function decideCancel(p: PaymentSnapshot, requested?: AmountDto): Decision {
  const { to, event } = transition(p.status, 'cancel');
  if (requested) {
    const amount = inPaymentCurrency(p, requested);
    if (amount.value !== p.amountValue) {
      throw DomainError.validation(`A cancel voids the whole authorization of ${p.amountValue}`, 'amount.value');
    }
  }
  return voided(p, 'cancel', { to, event });
}

/** Reverses the whole payment: cancels an authorization, or refunds what is left of a capture. */
export function decideCancelOrRefund(p: PaymentSnapshot): Decision {
  if (canTransition(p.status, 'cancel')) return decideCancel(p);
  if (!canTransition(p.status, 'refund_full')) {
    throw DomainError.invalidState(`Cannot cancel or refund a payment that is ${p.status}`);
  }
  const { to, event } = transition(p.status, 'refund_full');
  return {
    kind: 'refund',
    trigger: 'refund_full',
    to,
    event,
    amount: whole(p, p.amountCaptured - p.amountRefunded),
    amountCaptured: p.amountCaptured,
    amountRefunded: p.amountCaptured,
    result: 'refunded',
  };
}

/** The hold-expiry sweeper's change: an authorization whose hold ended becomes cancelled. */
export function decideHoldExpiry(p: PaymentSnapshot, now: Date): Decision {
  const { to, event } = transition(p.status, 'expire_hold');
  if (!p.holdExpiresAt || p.holdExpiresAt.getTime() > now.getTime()) {
    throw DomainError.invalidState('The authorization hold has not expired');
  }
  return voided(p, 'expire_hold', { to, event });
}
