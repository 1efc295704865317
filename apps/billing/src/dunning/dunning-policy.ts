/**
 * Dunning: which move a payment fact makes on a subscription (a renewal or a retry paid or declined, the last
 * dunning attempt, a new payment method) and when the next retry falls due. Only the subscription policy
 * (subscription/subscription-policy.ts) asks it; the moves are the subscription's transition table.
 */
import { SubscriptionStatus } from '@app/contracts';
import { SUBSCRIPTION_MACHINE, SubscriptionTrigger } from '../subscription/subscription-state';

const DAY_MS = 86_400_000;

/** `scheduled`: the renewal or a dunning retry; `forced`: POST retry-payment, off the schedule. */
export type AttemptMode = 'scheduled' | 'forced';

/** When the dunning retries of a declined renewal fall due. */
export interface DunningSchedule {
  /** Days after the scheduled renewal time, one per retry, ascending; when they are spent, it suspends. */
  readonly retryDays: readonly number[];
}

/** Dunning retries fall due 1, 3, 5 and 7 days after the scheduled renewal time. */
export const DUNNING_RETRY_DAYS: readonly number[] = [1, 3, 5, 7];

/** The schedule every subscription follows today. */
export const DEFAULT_DUNNING_SCHEDULE: DunningSchedule = { retryDays: DUNNING_RETRY_DAYS };

/**
 * When the next dunning retry falls due after `retriesDone` failed retries (0 right after the failed
 * renewal), or null when the schedule's retries have been spent (the subscription is suspended).
 */
export function dunningRetryAt(
  scheduledAt: Date,
  retriesDone: number,
  schedule: DunningSchedule = DEFAULT_DUNNING_SCHEDULE,
): Date | null {
  const days = schedule.retryDays[retriesDone];
  return days === undefined ? null : new Date(scheduledAt.getTime() + days * DAY_MS);
}

const PAID_MOVES: Partial<Record<SubscriptionStatus, SubscriptionTrigger>> = {
  active: 'renew',
  past_due: 'recover',
  trialing: 'activate',
  pending: 'activate',
};

/**
 * A paid charge renews an active subscription, reactivates a past_due one and activates one whose trial
 * or deferred start ended. Null: the status stays (paused or cancelled meanwhile, the merchant's last word).
 */
export function paidMove(status: SubscriptionStatus): SubscriptionTrigger | null {
  const move = PAID_MOVES[status];
  return move && SUBSCRIPTION_MACHINE.can(status, move) ? move : null;
}

export interface Decline {
  mode: AttemptMode;
  /** The refusal says no retry can succeed. */
  terminal: boolean;
  /** The renewal's scheduled time, from which the retries are counted. */
  scheduledAt: Date;
}

/** What a declined charge does; `moves` go through the table in order. */
export type DeclineDecision =
  /** Only the attempt is recorded: a forced retry, or a subscription paused or cancelled meanwhile. */
  | { kind: 'recorded'; moves: SubscriptionTrigger[] }
  /** Past due, waiting for the next dunning retry. */
  | { kind: 'retry'; moves: SubscriptionTrigger[]; dunningAttemptCount: number; retryAt: Date }
  /** A terminal refusal or the last dunning attempt: the invoice fails and the subscription is suspended. */
  | { kind: 'suspend'; moves: SubscriptionTrigger[]; dunningAttemptCount: number };

/**
 * The dunning decision. A declined renewal makes the subscription past_due (count 0, first retry at the
 * schedule's first day: +1 by default); a declined dunning retry counts and waits for the next one (+3, +5,
 * +7); a terminal refusal or the last declined retry suspends. A forced retry counts in the invoice only and
 * leaves the dunning schedule as it was. `schedule` is the only input besides the subscription and the decline.
 */
export function declinedMove(
  s: { status: SubscriptionStatus; dunningAttemptCount: number },
  decline: Decline,
  schedule: DunningSchedule = DEFAULT_DUNNING_SCHEDULE,
): DeclineDecision {
  if (decline.mode === 'forced') {
    return { kind: 'recorded', moves: SUBSCRIPTION_MACHINE.can(s.status, 'retry_failed') ? ['retry_failed'] : [] };
  }
  let first: SubscriptionTrigger;
  let dunningAttemptCount: number;
  if (s.status === 'past_due') {
    [first, dunningAttemptCount] = ['retry_failed', s.dunningAttemptCount + 1];
  } else if (SUBSCRIPTION_MACHINE.can(s.status, 'fail_renewal')) {
    [first, dunningAttemptCount] = ['fail_renewal', 0];
  } else {
    return { kind: 'recorded', moves: [] };
  }
  const retryAt = dunningRetryAt(decline.scheduledAt, dunningAttemptCount, schedule);
  if (!decline.terminal && retryAt) return { kind: 'retry', moves: [first], dunningAttemptCount, retryAt };
  return { kind: 'suspend', moves: [first, 'suspend'], dunningAttemptCount };
}

/**
 * A new card on a past_due or suspended subscription is stored, pays what is due and reactivates it; on a
 * live one it is verified and stored. Refused (409) where the table allows neither.
 */
export function newPaymentMethodMoves(
  status: SubscriptionStatus,
): ['update_payment_method'] | ['update_payment_method', 'recover'] {
  SUBSCRIPTION_MACHINE.check(status, 'update_payment_method');
  if (status !== 'past_due' && status !== 'suspended') return ['update_payment_method'];
  SUBSCRIPTION_MACHINE.check(status, 'recover');
  return ['update_payment_method', 'recover'];
}

/** A forced retry charges a past_due subscription only: where a declined retry can be recorded. */
export function canRetry(status: SubscriptionStatus): boolean {
  return SUBSCRIPTION_MACHINE.can(status, 'retry_failed');
}

/** 409 "Cannot retry the payment of a … subscription" unless a forced retry is allowed. */
export function checkRetry(status: SubscriptionStatus): void {
  SUBSCRIPTION_MACHINE.check(status, 'retry_failed');
}
