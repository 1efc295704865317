import { EventType, EventTypes, SubscriptionStatus } from '@app/contracts';
import { DomainError } from '@app/errors';

/** A subscription that is being created has no status yet. */
export type SubscriptionState = SubscriptionStatus | 'new';

export type SubscriptionTrigger =
  | 'create_pending'
  | 'create_trialing'
  | 'create_active'
  | 'start_trial'
  | 'end_trial'
  | 'retry_failed'
  | 'activate'
  | 'renew'
  | 'fail_renewal'
  | 'suspend'
  | 'recover'
  | 'complete'
  | 'cancel'
  | 'pause'
  | 'resume'
  | 'change_plan'
  | 'schedule_plan_change'
  | 'update_payment_method';

interface Transition {
  from: readonly SubscriptionState[];
  /** null: the status stays what it was (the change is to something else: plan, card). */
  to: SubscriptionStatus | null;
  events: readonly EventType[];
  /** For the INVALID_STATE message: "Cannot pause a cancelled subscription". */
  verb: string;
}

const LIVE: readonly SubscriptionState[] = ['pending', 'trialing', 'active', 'past_due', 'paused'];

/**
 * The one table of subscription state changes (SPEC "Subscription" + DECISIONS §5). Every use case asks
 * `applySubscriptionTransition()`; nothing assigns a status by hand. The renewal rows (renew, fail_renewal,
 * suspend, recover, complete, start_trial, activate) are for the scheduler of the billing-over-time work.
 */
export const SUBSCRIPTION_TRANSITIONS: Readonly<Record<SubscriptionTrigger, Transition>> = {
  create_pending: { from: ['new'], to: 'pending', events: [EventTypes.subscriptionCreated], verb: 'create' },
  create_trialing: { from: ['new'], to: 'trialing', events: [EventTypes.subscriptionCreated], verb: 'create' },
  create_active: {
    from: ['new'],
    to: 'active',
    events: [EventTypes.subscriptionCreated, EventTypes.subscriptionActivated],
    verb: 'create',
  },
  start_trial: { from: ['pending'], to: 'trialing', events: [], verb: 'start the trial of' },
  /** The trial is over: its first charge is being made (activate or fail_renewal follows with the outcome). */
  end_trial: { from: ['trialing'], to: null, events: [EventTypes.subscriptionTrialEnded], verb: 'end the trial of' },
  /** A dunning retry or a forced retry that declined: still past_due, the schedule decides what comes next. */
  retry_failed: {
    from: ['past_due'],
    to: null,
    events: [EventTypes.subscriptionPaymentFailed],
    verb: 'retry the payment of',
  },
  activate: {
    from: ['pending', 'trialing'],
    to: 'active',
    events: [EventTypes.subscriptionActivated],
    verb: 'activate',
  },
  renew: { from: ['active'], to: 'active', events: [EventTypes.subscriptionRenewed], verb: 'renew' },
  fail_renewal: {
    from: ['active', 'trialing', 'pending'],
    to: 'past_due',
    events: [EventTypes.subscriptionPaymentFailed, EventTypes.subscriptionPastDue],
    verb: 'fail the renewal of',
  },
  suspend: { from: ['past_due'], to: 'suspended', events: [EventTypes.subscriptionSuspended], verb: 'suspend' },
  recover: {
    from: ['past_due', 'suspended'],
    to: 'active',
    events: [EventTypes.subscriptionReactivated],
    verb: 'reactivate',
  },
  complete: {
    from: ['active', 'past_due'],
    to: 'completed',
    events: [EventTypes.subscriptionCompleted],
    verb: 'complete',
  },
  cancel: {
    from: ['pending', 'trialing', 'active', 'past_due', 'suspended', 'paused'],
    to: 'cancelled',
    events: [EventTypes.subscriptionCancelled],
    verb: 'cancel',
  },
  pause: {
    from: ['active', 'trialing', 'past_due'],
    to: 'paused',
    events: [EventTypes.subscriptionPaused],
    verb: 'pause',
  },
  resume: { from: ['paused'], to: 'active', events: [EventTypes.subscriptionResumed], verb: 'resume' },
  change_plan: { from: LIVE, to: null, events: [EventTypes.subscriptionPlanChanged], verb: 'change the plan of' },
  schedule_plan_change: {
    from: LIVE,
    to: null,
    events: [EventTypes.subscriptionPlanChangeScheduled],
    verb: 'change the plan of',
  },
  update_payment_method: {
    from: ['pending', 'trialing', 'active', 'paused'],
    to: null,
    events: [EventTypes.subscriptionPaymentMethodUpdated],
    verb: 'update the payment method of',
  },
};

export function canTransition(from: SubscriptionState, trigger: SubscriptionTrigger): boolean {
  return SUBSCRIPTION_TRANSITIONS[trigger].from.includes(from);
}

/** The status after `trigger` and the events it emits; 409 INVALID_STATE when the table forbids it. */
export function subscriptionTransition(
  from: SubscriptionState,
  trigger: SubscriptionTrigger,
): { to: SubscriptionStatus; events: readonly EventType[] } {
  const t = SUBSCRIPTION_TRANSITIONS[trigger];
  if (!t.from.includes(from)) {
    throw DomainError.invalidState(`Cannot ${t.verb} a ${from === 'new' ? 'new' : from} subscription`);
  }
  return { to: t.to ?? (from as SubscriptionStatus), events: t.events };
}

/** Moves `subscription` by `trigger` (the only place a status is written) and answers the events to emit. */
export function applySubscriptionTransition(
  subscription: { status: SubscriptionState },
  trigger: SubscriptionTrigger,
): readonly EventType[] {
  const { to, events } = subscriptionTransition(subscription.status, trigger);
  subscription.status = to;
  return events;
}
