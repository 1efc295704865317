import { SubscriptionView } from '@app/contracts';
import { PlanEntity } from '../plan/plan.entity';
import { toPlanView } from '../plan/plan.view';
import { SubscriptionEntity } from './subscription.entity';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A subscription as the API answers it; `plan` embedded on single-subscription answers and in events. */
export function toSubscriptionView(s: SubscriptionEntity, plan?: PlanEntity): SubscriptionView {
  const view: SubscriptionView = {
    id: s.id,
    merchantId: s.merchantId,
    planId: s.planId,
    customerEmail: s.customerEmail,
    customerName: s.customerName,
    customerDocument: s.customerDocument,
    cardBrand: s.cardBrand,
    networkTransactionId: s.networkTransactionId,
    status: s.status,
    currentPeriodStart: iso(s.currentPeriodStart),
    currentPeriodEnd: iso(s.currentPeriodEnd),
    nextBillingDate: iso(s.nextBillingDate),
    trialStart: iso(s.trialStart),
    trialEnd: iso(s.trialEnd),
    dunningAttemptCount: s.dunningAttemptCount,
    activatedAt: iso(s.activatedAt),
    cancelledAt: iso(s.cancelledAt),
    pausedAt: iso(s.pausedAt),
    suspendedAt: iso(s.suspendedAt),
    completedAt: iso(s.completedAt),
    startAt: iso(s.startAt),
    cyclesCompleted: s.cyclesCompleted,
    parentSubscriptionId: s.parentSubscriptionId,
    propagateLifecycle: s.propagateLifecycle,
    pendingPlanId: s.pendingPlanId,
    scheduledPlanChange:
      s.pendingPlanId !== null && s.nextBillingDate
        ? { planId: s.pendingPlanId, effectiveAt: s.nextBillingDate.toISOString() }
        : null,
    renewalParked:
      s.renewalParkedAt && s.renewalParkedReason !== null
        ? { at: s.renewalParkedAt.toISOString(), reason: s.renewalParkedReason }
        : null,
    dunning:
      s.status === 'past_due' && s.dunning
        ? {
            policyVersion: s.dunning.policyVersion,
            scheduledAt: s.dunning.scheduledAt,
            lastRefusal: s.dunning.lastRefusal,
            lastConnectionCode: s.dunning.lastConnectionCode,
            waitingFor: s.dunning.waitingFor,
            nextAttemptAt: s.dunning.waitingFor === 'scheduled_retry' ? iso(s.nextBillingDate) : null,
          }
        : null,
    metadata: s.metadata,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
  if (plan) view.plan = toPlanView(plan);
  return view;
}
