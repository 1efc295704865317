/**
 * The subscription policy: the one place that decides why a subscription moves. `decide(subscription, fact,
 * now)` answers the moves through the subscription's transition table (subscription-state.ts), in order, and
 * the fields they set besides the status; `applyDecision()` makes them. Creation, trial start and end,
 * completion, a renewal paid or declined, dunning (its schedule in dunning-policy.ts), a plan change
 * and the merchant's verbs are all decided here; callers decide nothing about a subscription's state and do
 * the I/O (charges, invoices, rows, events) the decision asks for. Pure: no clock, no database.
 */
import { EventType, SubscriptionStatus } from '@app/contracts';
import {
  AttemptMode,
  canRetry,
  checkRetry,
  declinedMove,
  defaultSchedule,
  DunningSchedule,
  newPaymentMethodMoves,
  paidMove,
} from './dunning-policy';
import { periodBoundary } from '../period/period';
import type {
  CreationDecision,
  Decision,
  Decisions,
  MerchantVerb,
  OutcomeDecision,
  PaymentMethodDecision,
  PlanChangeDecision,
  PlanTerms,
  PolicySubscription,
  RenewalDecision,
  SubscriptionFact,
  VerbDecision,
} from './subscription-facts';
import { SUBSCRIPTION_MACHINE, SubscriptionState, SubscriptionTrigger } from './subscription-state';
import type { SubscriptionEntity } from './subscription.entity';

export { canRetry, checkRetry, defaultSchedule };
export type { AttemptMode, DunningSchedule };
export type * from './subscription-facts';

const DAY_MS = 86_400_000;

/**
 * What `fact` does to `s` at `now`. Every decided move is checked against the table in order: a fact the
 * subscription's state does not allow is refused here with 409 INVALID_STATE, before any I/O.
 */
export function decide<F extends SubscriptionFact>(s: PolicySubscription, fact: F, now: Date): Decisions[F['kind']];
export function decide(s: PolicySubscription, fact: SubscriptionFact, now: Date): Decision {
  const decision = decideUnchecked(s, fact, now);
  checkMoves(s.status, decision.moves);
  return decision;
}

/** Makes `decision` on `subscription`: the moves through the table, then the fields. Answers the events. */
export function applyDecision(subscription: SubscriptionEntity, decision: Decision): EventType[] {
  const events = decision.moves.flatMap((move) => SUBSCRIPTION_MACHINE.apply(subscription, move));
  Object.assign(subscription, decision.set);
  return events;
}

/** Whether a scheduled step is due for `s` at `at`: a live subscription whose next billing date has come. */
export function renewalDueAt(s: Pick<SubscriptionEntity, 'status' | 'nextBillingDate'>, at: Date): boolean {
  return s.nextBillingDate !== null && s.nextBillingDate.getTime() <= at.getTime() && RENEWS.includes(s.status);
}

const RENEWS: readonly SubscriptionStatus[] = ['pending', 'trialing', 'active', 'past_due'];

/** Whether a child with `propagateLifecycle` follows its parent's verb (one whose state does not allow it keeps it). */
export function followsParent(child: { status: SubscriptionStatus }, verb: MerchantVerb): boolean {
  return SUBSCRIPTION_MACHINE.can(child.status, verb);
}

/** Whether a child subscription may be attached to `parent`: one that can still be cancelled. */
export function acceptsChild(parent: { status: SubscriptionStatus }): boolean {
  return SUBSCRIPTION_MACHINE.can(parent.status, 'cancel');
}

function checkMoves(from: SubscriptionState, moves: readonly SubscriptionTrigger[]): void {
  let state = from;
  for (const move of moves) state = SUBSCRIPTION_MACHINE.transition(state, move).to;
}

function decideUnchecked(s: PolicySubscription, fact: SubscriptionFact, now: Date): Decisions[keyof Decisions] {
  switch (fact.kind) {
    case 'create':
      return creation(fact.plan, now, fact.startAt);
    case 'renewal_due':
      return renewalStep(s, fact.plan, fact.openInvoice, now);
    case 'paid':
      return paid(s, now);
    case 'declined':
      return declined(s, fact, now);
    case 'new_payment_method':
      return newPaymentMethod(s, fact.plan, fact.openInvoice, now);
    case 'change_plan':
      return planChange(s, fact.applyAt, fact.planId, now);
    case 'cancel':
      return {
        moves: ['cancel'],
        set: { cancelledAt: now, nextBillingDate: null, updatedAt: now },
        voidOpenInvoices: true,
      };
    case 'pause':
      return {
        moves: ['pause'],
        set: { pausedAt: now, nextBillingDate: null, updatedAt: now },
        voidOpenInvoices: false,
      };
    case 'resume':
      return resume(s, fact.plan, now);
  }
}

/**
 * Status and dates at creation: a future `startAt` → pending (a trial starts at startAt); a plan trial →
 * trialing, first charge at trialEnd; otherwise active with cycle 1 charged now.
 */
function creation(plan: PlanTerms, now: Date, startAt?: Date): CreationDecision {
  const trialMs = plan.trialPeriodDays * DAY_MS;
  if (startAt) {
    const trialEnd = trialMs ? new Date(startAt.getTime() + trialMs) : null;
    return {
      moves: ['create_pending'],
      chargeNow: false,
      set: {
        billingAnchor: new Date(startAt.getTime() + trialMs),
        currentPeriodStart: null,
        currentPeriodEnd: null,
        nextBillingDate: startAt,
        trialStart: trialMs ? startAt : null,
        trialEnd,
        startAt,
        activatedAt: null,
      },
    };
  }
  if (trialMs) {
    const trialEnd = new Date(now.getTime() + trialMs);
    return {
      moves: ['create_trialing'],
      chargeNow: false,
      set: {
        billingAnchor: trialEnd,
        currentPeriodStart: now,
        currentPeriodEnd: trialEnd,
        nextBillingDate: trialEnd,
        trialStart: now,
        trialEnd,
        startAt: null,
        activatedAt: null,
      },
    };
  }
  const end = periodBoundary(now, plan.interval, plan.intervalCount, 1);
  return {
    moves: ['create_active'],
    chargeNow: true,
    set: {
      billingAnchor: now,
      currentPeriodStart: now,
      currentPeriodEnd: end,
      nextBillingDate: end,
      trialStart: null,
      trialEnd: null,
      startAt: null,
      activatedAt: now,
    },
  };
}

/**
 * The open invoice is charged first; a deferred start with a trial starts its trial at startAt; an active
 * subscription that has paid maxBillingCycles completes; otherwise it renews: a trial ends (its first charge
 * follows) and an active one takes a scheduled plan change at this boundary.
 */
function renewalStep(s: PolicySubscription, plan: PlanTerms, openInvoice: boolean, now: Date): RenewalDecision {
  if (openInvoice) return { step: 'charge_open', moves: [], set: {} };
  if (s.status === 'pending' && s.trialEnd && s.trialEnd.getTime() > s.nextBillingDate!.getTime()) {
    return {
      step: 'start_trial',
      moves: ['start_trial'],
      set: {
        currentPeriodStart: s.nextBillingDate,
        currentPeriodEnd: s.trialEnd,
        nextBillingDate: s.trialEnd,
        updatedAt: now,
      },
    };
  }
  if (s.status === 'active' && plan.maxBillingCycles > 0 && s.cyclesCompleted >= plan.maxBillingCycles) {
    return { step: 'complete', moves: ['complete'], set: { completedAt: now, nextBillingDate: null, updatedAt: now } };
  }
  const from = s.nextBillingDate!;
  const moves: SubscriptionTrigger[] = s.status === 'trialing' ? ['end_trial'] : [];
  if (s.pendingPlanId !== null && s.status === 'active') {
    // The new plan's periods start at the boundary where it takes over.
    return {
      step: 'renew',
      moves: [...moves, 'change_plan'],
      set: { planId: s.pendingPlanId, pendingPlanId: null, billingAnchor: from },
      planId: s.pendingPlanId,
      from,
    };
  }
  return { step: 'renew', moves, set: {}, planId: s.planId, from };
}

/** Paid: the dunning policy's move (renew, activate, reactivate) and the next renewal due; the cycle counts. */
function paid(s: PolicySubscription, now: Date): OutcomeDecision {
  const move = paidMove(s.status as SubscriptionStatus);
  const cyclesCompleted = s.cyclesCompleted + 1;
  if (!move) return { moves: [], set: { cyclesCompleted, updatedAt: now }, invoice: 'pay' };
  return {
    moves: [move],
    set: {
      cyclesCompleted,
      dunningAttemptCount: 0,
      activatedAt: s.activatedAt ?? now,
      nextBillingDate: s.currentPeriodEnd,
      updatedAt: now,
    },
    invoice: 'pay',
  };
}

/** Declined: the dunning decision (under `schedule`): its moves, count and next retry, or the suspension. */
function declined(
  s: PolicySubscription,
  fact: Extract<SubscriptionFact, { kind: 'declined' }>,
  now: Date,
): OutcomeDecision {
  const dunning = declinedMove(s as { status: SubscriptionStatus; dunningAttemptCount: number }, fact, fact.schedule);
  if (dunning.kind === 'recorded') return { moves: dunning.moves, set: { updatedAt: now }, invoice: null };
  const { moves, dunningAttemptCount } = dunning;
  if (dunning.kind === 'retry') {
    return { moves, set: { dunningAttemptCount, nextBillingDate: dunning.retryAt, updatedAt: now }, invoice: null };
  }
  return {
    moves,
    set: { dunningAttemptCount, suspendedAt: now, nextBillingDate: null, updatedAt: now },
    invoice: 'fail',
  };
}

/**
 * A new card is stored; on a past_due subscription it pays the open invoice (the next renewal is due at the
 * period's end), on a suspended one (or a past_due one without an open invoice) a new period starting now;
 * either reactivates.
 */
function newPaymentMethod(
  s: PolicySubscription,
  plan: PlanTerms,
  openInvoice: boolean,
  now: Date,
): PaymentMethodDecision {
  const moves = newPaymentMethodMoves(s.status as SubscriptionStatus);
  if (moves.length === 1) return { moves, set: { updatedAt: now }, pays: 'nothing' };
  const recovered = {
    dunningAttemptCount: 0,
    suspendedAt: null,
    cyclesCompleted: s.cyclesCompleted + 1,
    updatedAt: now,
  };
  if (s.status === 'past_due' && openInvoice) {
    return { moves, set: { ...recovered, nextBillingDate: s.currentPeriodEnd }, pays: 'open_invoice' };
  }
  const end = periodBoundary(now, plan.interval, plan.intervalCount, 1);
  return {
    moves,
    set: { ...recovered, billingAnchor: now, currentPeriodStart: now, currentPeriodEnd: end, nextBillingDate: end },
    pays: 'new_period',
  };
}

/**
 * `now`: the plan switches at once; an active subscription's current period keeps its end (the following
 * periods are the new plan's from there) and the rest of it is prorated. `next_billing`: the change waits
 * for the next renewal.
 */
function planChange(
  s: PolicySubscription,
  applyAt: 'now' | 'next_billing',
  planId: number,
  now: Date,
): PlanChangeDecision {
  if (applyAt === 'next_billing') {
    return { moves: ['schedule_plan_change'], set: { pendingPlanId: planId, updatedAt: now }, prorate: false };
  }
  const active = s.status === 'active';
  return {
    moves: ['change_plan'],
    set: {
      ...(active && s.currentPeriodEnd ? { billingAnchor: s.currentPeriodEnd } : {}),
      planId,
      pendingPlanId: null,
      updatedAt: now,
    },
    prorate: active,
  };
}

/** Paused time is not charged: the next charge is one interval after the resume. */
function resume(s: PolicySubscription, plan: PlanTerms, now: Date): VerbDecision {
  const next = periodBoundary(now, plan.interval, plan.intervalCount, 1);
  return {
    moves: ['resume'],
    set: {
      pausedAt: null,
      billingAnchor: now,
      currentPeriodStart: now,
      currentPeriodEnd: next,
      nextBillingDate: next,
      activatedAt: s.activatedAt ?? now,
      updatedAt: now,
    },
    voidOpenInvoices: false,
  };
}
