/**
 * What the subscription policy (subscription-policy.ts) reads and answers: the facts it decides on, and the
 * decision each kind of fact gets. Types only.
 */
import type { AttemptMode, DunningSchedule } from './dunning-policy';
import type { PlanEntity } from '../plan/plan.entity';
import type { SubscriptionState, SubscriptionTrigger } from './subscription-state';
import type { SubscriptionEntity } from './subscription.entity';

/** What the policy reads of a subscription. */
export type PolicySubscription = Pick<
  SubscriptionEntity,
  | 'planId'
  | 'pendingPlanId'
  | 'billingAnchor'
  | 'currentPeriodStart'
  | 'currentPeriodEnd'
  | 'nextBillingDate'
  | 'trialEnd'
  | 'dunningAttemptCount'
  | 'cyclesCompleted'
  | 'activatedAt'
> & { status: SubscriptionState };

/** What the policy reads of a plan. */
export type PlanTerms = Pick<PlanEntity, 'id' | 'interval' | 'intervalCount' | 'trialPeriodDays' | 'maxBillingCycles'>;

/** The fields a decision sets besides the status, which only the table's moves change. */
export type SubscriptionPatch = Partial<Omit<SubscriptionEntity, 'status' | 'id'>>;

export type MerchantVerb = 'cancel' | 'pause' | 'resume';

/** Something that happened to a subscription, or that someone asks of it. */
export type SubscriptionFact =
  /** POST /v1/subscription: `startAt` defers the start. */
  | { kind: 'create'; plan: PlanTerms; startAt?: Date }
  /** The scheduler reached `nextBillingDate`; `plan` is the plan it runs under. */
  | { kind: 'renewal_due'; plan: PlanTerms; openInvoice: boolean }
  /** A renewal, a dunning retry or a forced retry was paid (or had nothing to charge). */
  | { kind: 'paid' }
  /** A renewal, a dunning retry or a forced retry was declined; `scheduledAt`: the renewal's scheduled time. */
  | {
      kind: 'declined';
      mode: AttemptMode;
      terminal: boolean;
      scheduledAt: Date;
      /** The run's recovery policy; the default schedule (docs/api.md, Billing over time) when absent. */
      schedule?: DunningSchedule;
    }
  /** A new card was approved; on a past_due subscription `openInvoice` says whether it pays an open invoice. */
  | { kind: 'new_payment_method'; plan: PlanTerms; openInvoice: boolean }
  | { kind: 'change_plan'; applyAt: 'now' | 'next_billing'; planId: number }
  | { kind: 'cancel' }
  | { kind: 'pause' }
  | { kind: 'resume'; plan: PlanTerms };

/** The moves through the table, in order, and the fields they set besides the status. */
export interface Decision {
  readonly moves: readonly SubscriptionTrigger[];
  readonly set: SubscriptionPatch;
}

export interface CreationDecision extends Decision {
  /** Cycle 1 is charged at creation (no trial, no deferred start). */
  readonly chargeNow: boolean;
}

/**
 * A due renewal step: charge the open invoice (a dunning retry, or a step that died after opening it), start
 * the trial of a deferred start, complete at maxBillingCycles, or renew: invoice the next period on `planId`
 * (a scheduled plan change taking over at `from`).
 */
export type RenewalDecision = Decision &
  (
    | { readonly step: 'charge_open' | 'start_trial' | 'complete' }
    | { readonly step: 'renew'; readonly planId: number; readonly from: Date }
  );

/** A payment outcome: the subscription's moves and the invoice's (`pay`, `fail` or none). */
export interface OutcomeDecision extends Decision {
  readonly invoice: 'pay' | 'fail' | null;
}

/** A new card: what it pays while it is stored (nothing, the open invoice, or a new period starting now). */
export interface PaymentMethodDecision extends Decision {
  readonly pays: 'nothing' | 'open_invoice' | 'new_period';
}

export interface PlanChangeDecision extends Decision {
  /** The rest of the current period is prorated (charged when positive): an active subscription changed now. */
  readonly prorate: boolean;
}

export interface VerbDecision extends Decision {
  /** Cancel: the open invoices are voided. */
  readonly voidOpenInvoices: boolean;
}

export interface Decisions {
  create: CreationDecision;
  renewal_due: RenewalDecision;
  paid: OutcomeDecision;
  declined: OutcomeDecision;
  new_payment_method: PaymentMethodDecision;
  change_plan: PlanChangeDecision;
  cancel: VerbDecision;
  pause: VerbDecision;
  resume: VerbDecision;
}
