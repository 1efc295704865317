import { EventType } from '@app/contracts';
import { assertNever } from '../connector/assert-never';
import { AuthorizationOutcome } from '../connector/provider-connector';
import { Decision } from './payment-money';
import { PaymentEntity } from './payment.entity';
import { move, PaymentTrigger } from './payment-state';

const DAY_MS = 24 * 3600 * 1000;

/** Moves the payment by `trigger` through the transition table, as of `now`. */
function moved(payment: PaymentEntity, trigger: PaymentTrigger, now: Date): EventType {
  payment.updatedAt = now;
  return move(payment, trigger);
}

/**
 * Applies an acquirer's answer to a payment (a new one: `reserved`; a pending one on 3DS resume or APM
 * settlement) and returns the event to emit. Every outcome kind is handled: adding one to
 * AuthorizationOutcome fails to compile here until it is mapped.
 */
export function applyOutcome(
  payment: PaymentEntity,
  outcome: AuthorizationOutcome,
  now: Date,
  holdDays: number,
): EventType {
  switch (outcome.kind) {
    case 'approved': {
      const purchase = payment.intent === 'purchase';
      const event = moved(payment, purchase ? 'approve_purchase' : 'approve_authorization', now);
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
      if (outcome.threeDs) payment.threeDSecure = { ...outcome.threeDs };
      return event;
    }
    case 'declined': {
      const event = moved(payment, 'decline', now);
      payment.acquirerReference = outcome.acquirerReference;
      payment.refusalCode = outcome.refusalCode;
      payment.actionRequired = null;
      return event;
    }
    case 'failed': {
      const event = moved(payment, 'fail', now);
      payment.acquirerReference = outcome.acquirerReference ?? payment.acquirerReference;
      payment.actionRequired = null;
      return event;
    }
    case 'challenge_required': {
      const event = moved(payment, 'require_challenge', now);
      payment.acquirerReference = outcome.acquirerReference;
      return event;
    }
    case 'pending_action': {
      const event = moved(payment, 'require_action', now);
      payment.acquirerReference = outcome.acquirerReference;
      return event;
    }
    default:
      return assertNever(outcome);
  }
}

/** Applies a capture, refund or cancel the money rules allowed (payment-money.ts). */
export function applyDecision(payment: PaymentEntity, decision: Decision, now: Date): EventType {
  const event = moved(payment, decision.trigger, now);
  payment.amountCaptured = decision.amountCaptured;
  payment.amountRefunded = decision.amountRefunded;
  if (payment.status !== 'authorized') payment.holdExpiresAt = null;
  if (decision.trigger === 'cancel') payment.cancelReason = 'merchant';
  if (decision.trigger === 'expire_hold') payment.cancelReason = 'hold_expired';
  if (decision.trigger === 'abandon') payment.cancelReason = 'abandoned';
  return event;
}
