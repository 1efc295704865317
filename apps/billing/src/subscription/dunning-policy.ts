/**
 * Dunning: which move a payment fact makes on a subscription (a renewal or a retry paid or declined, the last
 * dunning attempt, a new payment method) and when the next retry falls due. Only the subscription policy
 * (subscription-policy.ts) asks it; the moves are the subscription's transition table.
 */
import { SubscriptionStatus } from '@app/contracts';
import { SUBSCRIPTION_MACHINE, SubscriptionTrigger } from './subscription-state';
import { RetryPlan } from '../recovery/recovery-policy';

const DAY_MS = 86_400_000;

/** `scheduled`: the renewal or a dunning retry; `forced`: POST retry-payment, off the schedule. */
export type AttemptMode = 'scheduled' | 'forced';

/** Dunning retries fall due 1, 3, 5 and 7 days after the scheduled renewal time (docs/api.md, Billing over time). */
export const DUNNING_RETRY_DAYS: readonly number[] = [1, 3, 5, 7];

/**
 * What a dunning run does after `retriesDone` failed retries (0 right after the failed renewal): retry at a
 * time, wait for a new payment method, or stop. The run's recovery policy (recovery/recovery-policy.ts) is one.
 */
export type DunningSchedule = (retriesDone: number) => RetryPlan;

/**
 * When the next dunning retry falls due after `retriesDone` failed retries under these retry days, or null
 * when they have been spent (the subscription is suspended).
 */
export function dunningRetryAt(
  scheduledAt: Date,
  retriesDone: number,
  retryDays: readonly number[] = DUNNING_RETRY_DAYS,
): Date | null {
  const days = retryDays[retriesDone];
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
  /** Past due, waiting for the next dunning retry (`retryAt` null: for a new payment method). */
  | { kind: 'retry'; moves: SubscriptionTrigger[]; dunningAttemptCount: number; retryAt: Date | null }
  /** A terminal refusal or the last dunning attempt: the invoice fails and the subscription is suspended. */
  | { kind: 'suspend'; moves: SubscriptionTrigger[]; dunningAttemptCount: number };

/** docs/api.md's schedule: the retry days of DUNNING_RETRY_DAYS, then stop. */
export const defaultSchedule =
  (scheduledAt: Date): DunningSchedule =>
  (retriesDone: number): RetryPlan => {
    const at = dunningRetryAt(scheduledAt, retriesDone);
    return at ? { kind: 'retry', at } : { kind: 'stop' };
  };

/**
 * A declined renewal makes the subscription past_due (count 0); a declined dunning retry counts; either then
 * waits for what `schedule` (the run's recovery policy, given the failed retries so far) plans: the next retry
 * (by default +1, +3, +5, +7 days) or a new payment method; a terminal refusal or a schedule that stops
 * suspends. A forced retry counts in the invoice only and leaves the dunning schedule as it was.
 */
export function declinedMove(
  s: { status: SubscriptionStatus; dunningAttemptCount: number },
  decline: Decline,
  schedule: DunningSchedule = defaultSchedule(decline.scheduledAt),
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
  const plan: RetryPlan = decline.terminal ? { kind: 'stop' } : schedule(dunningAttemptCount);
  if (plan.kind === 'retry') return { kind: 'retry', moves: [first], dunningAttemptCount, retryAt: plan.at };
  if (plan.kind === 'await_payment_method')
    return { kind: 'retry', moves: [first], dunningAttemptCount, retryAt: null };
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
