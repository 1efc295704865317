import { EventType } from '@app/contracts';
import { AcquirerOutcome, assertNever } from '../connector/connector';
import { Decision } from './payment-money';
import { PaymentEntity } from './payment.entity';
import { PaymentState, PaymentTrigger, transition } from './payment-state';

const DAY_MS = 24 * 3600 * 1000;

/** Sets the status `trigger` leads to from `from`, through the transition table. */
function move(payment: PaymentEntity, from: PaymentState, trigger: PaymentTrigger, now: Date): EventType {
  const { to, event } = transition(from, trigger);
  payment.status = to;
  payment.updatedAt = now;
  return event;
}

/**
 * Applies an acquirer's answer to a payment (a new one: `from` = 'new'; a pending one on 3DS resume or APM
 * settlement: its status) and returns the event to emit. Every outcome kind is handled: adding one to
 * AcquirerOutcome fails to compile here until it is mapped.
 */
export function applyOutcome(
  payment: PaymentEntity,
  from: PaymentState,
  outcome: AcquirerOutcome,
  now: Date,
  holdDays: number,
): EventType {
  switch (outcome.kind) {
    case 'approved': {
      const purchase = payment.intent === 'purchase';
      const event = move(payment, from, purchase ? 'approve_purchase' : 'approve_authorization', now);
      payment.acquirerReference = outcome.acquirerReference;
      payment.authorizationCode = outcome.authorizationCode;
      if (payment.card) {
        payment.card = {
          ...payment.card,
          networkTransactionId: outcome.networkTransactionId,
          networkReferenceId: outcome.networkReferenceId,
        };
      }
      payment.amountCaptured = purchase ? payment.amountValue : 0;
      // A zero-value verification holds nothing, so it has no hold to expire.
      payment.holdExpiresAt = !purchase && payment.amountValue > 0 ? new Date(now.getTime() + holdDays * DAY_MS) : null;
      payment.actionRequired = null;
      payment.refusalCode = null;
      return event;
    }
    case 'declined': {
      const event = move(payment, from, 'decline', now);
      payment.acquirerReference = outcome.acquirerReference;
      payment.refusalCode = outcome.refusalCode;
      payment.actionRequired = null;
      return event;
    }
    case 'failed': {
      const event = move(payment, from, 'fail', now);
      payment.acquirerReference = outcome.acquirerReference ?? payment.acquirerReference;
      payment.actionRequired = null;
      return event;
    }
    case 'challenge_required': {
      const event = move(payment, from, 'require_challenge', now);
      payment.acquirerReference = outcome.acquirerReference;
      return event;
    }
    case 'pending_action': {
      const event = move(payment, from, 'require_action', now);
      payment.acquirerReference = outcome.acquirerReference;
      return event;
    }
    default:
      return assertNever(outcome);
  }
}

/** Applies a capture, refund or cancel the money rules allowed (payment-money.ts). */
export function applyDecision(payment: PaymentEntity, decision: Decision, now: Date): EventType {
  const event = move(payment, payment.status, decision.trigger, now);
  payment.amountCaptured = decision.amountCaptured;
  payment.amountRefunded = decision.amountRefunded;
  if (payment.status !== 'authorized') payment.holdExpiresAt = null;
  if (decision.trigger === 'cancel') payment.cancelReason = 'merchant';
  if (decision.trigger === 'expire_hold') payment.cancelReason = 'hold_expired';
  if (decision.trigger === 'abandon') payment.cancelReason = 'abandoned';
  return event;
}
