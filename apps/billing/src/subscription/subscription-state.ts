import { EventType, EventTypes, SUBSCRIPTION_STATUSES, SubscriptionStatus } from '@app/contracts';
import { defineMachine } from '@app/state-machine';

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

const LIVE: readonly SubscriptionState[] = ['pending', 'trialing', 'active', 'past_due', 'paused'];

/**
 * The one table of subscription state changes. Which fact makes which move (creation, trial start and end,
 * completion, a renewal paid or declined, dunning, a plan change, a new card, the merchant's verbs) is
 * decided by `subscription-policy.ts`; its decisions are applied through this table, and nothing assigns a
 * status by hand.
 */
export const SUBSCRIPTION_MACHINE = defineMachine<SubscriptionState, SubscriptionTrigger, EventType>({
  name: 'subscription',
  states: ['new', ...SUBSCRIPTION_STATUSES],
  initial: 'new',
  moves: {
    create_pending: { from: ['new'], to: 'pending', emits: [EventTypes.subscriptionCreated], verb: 'create' },
    create_trialing: { from: ['new'], to: 'trialing', emits: [EventTypes.subscriptionCreated], verb: 'create' },
    create_active: {
      from: ['new'],
      to: 'active',
      emits: [EventTypes.subscriptionCreated, EventTypes.subscriptionActivated],
      verb: 'create',
    },
    start_trial: { from: ['pending'], to: 'trialing', verb: 'start the trial of' },
    /** The trial is over: its first charge is being made (activate or fail_renewal follows with the outcome). */
    end_trial: { from: ['trialing'], emits: [EventTypes.subscriptionTrialEnded], verb: 'end the trial of' },
    /** A dunning retry or a forced retry that declined: still past_due, the schedule decides what comes next. */
    retry_failed: {
      from: ['past_due'],
      emits: [EventTypes.subscriptionPaymentFailed],
      verb: 'retry the payment of',
    },
    activate: {
      from: ['pending', 'trialing'],
      to: 'active',
      emits: [EventTypes.subscriptionActivated],
      verb: 'activate',
    },
    renew: { from: ['active'], to: 'active', emits: [EventTypes.subscriptionRenewed], verb: 'renew' },
    fail_renewal: {
      from: ['active', 'trialing', 'pending'],
      to: 'past_due',
      emits: [EventTypes.subscriptionPaymentFailed, EventTypes.subscriptionPastDue],
      verb: 'fail the renewal of',
    },
    suspend: { from: ['past_due'], to: 'suspended', emits: [EventTypes.subscriptionSuspended], verb: 'suspend' },
    recover: {
      from: ['past_due', 'suspended'],
      to: 'active',
      emits: [EventTypes.subscriptionReactivated],
      verb: 'reactivate',
    },
    complete: {
      from: ['active', 'past_due'],
      to: 'completed',
      emits: [EventTypes.subscriptionCompleted],
      verb: 'complete',
    },
    cancel: {
      from: ['pending', 'trialing', 'active', 'past_due', 'suspended', 'paused'],
      to: 'cancelled',
      emits: [EventTypes.subscriptionCancelled],
      verb: 'cancel',
    },
    pause: {
      from: ['active', 'trialing', 'past_due'],
      to: 'paused',
      emits: [EventTypes.subscriptionPaused],
      verb: 'pause',
    },
    resume: { from: ['paused'], to: 'active', emits: [EventTypes.subscriptionResumed], verb: 'resume' },
    change_plan: { from: LIVE, emits: [EventTypes.subscriptionPlanChanged], verb: 'change the plan of' },
    schedule_plan_change: {
      from: LIVE,
      emits: [EventTypes.subscriptionPlanChangeScheduled],
      verb: 'change the plan of',
    },
    /** A new card; on a past_due or suspended subscription `recover` follows when it has paid what is due. */
    update_payment_method: {
      from: ['pending', 'trialing', 'active', 'past_due', 'suspended', 'paused'],
      emits: [EventTypes.subscriptionPaymentMethodUpdated],
      verb: 'update the payment method of',
    },
  },
  refusal: (verb, from) => `Cannot ${verb} a ${from} subscription`,
});
