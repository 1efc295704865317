import { periodBoundary } from '../period/period';
import { PlanEntity } from '../plan/plan.entity';
import { SubscriptionTrigger } from './subscription-state';

const DAY_MS = 86_400_000;

export interface InitialSchedule {
  trigger: Extract<SubscriptionTrigger, 'create_pending' | 'create_trialing' | 'create_active'>;
  /** Whether cycle 1 is charged at creation (no trial, no deferred start). */
  chargeNow: boolean;
  billingAnchor: Date;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  nextBillingDate: Date;
  trialStart: Date | null;
  trialEnd: Date | null;
  startAt: Date | null;
}

/**
 * Status and dates at creation: a future `startAt` → pending (a trial starts at startAt);
 * a plan trial → trialing, first charge at trialEnd; otherwise active with cycle 1 charged now.
 */
export function initialSchedule(plan: PlanEntity, now: Date, startAt?: Date): InitialSchedule {
  const trialMs = plan.trialPeriodDays * DAY_MS;
  if (startAt) {
    return {
      trigger: 'create_pending',
      chargeNow: false,
      billingAnchor: new Date(startAt.getTime() + trialMs),
      currentPeriodStart: null,
      currentPeriodEnd: null,
      nextBillingDate: startAt,
      trialStart: trialMs ? startAt : null,
      trialEnd: trialMs ? new Date(startAt.getTime() + trialMs) : null,
      startAt,
    };
  }
  if (trialMs) {
    const trialEnd = new Date(now.getTime() + trialMs);
    return {
      trigger: 'create_trialing',
      chargeNow: false,
      billingAnchor: trialEnd,
      currentPeriodStart: now,
      currentPeriodEnd: trialEnd,
      nextBillingDate: trialEnd,
      trialStart: now,
      trialEnd,
      startAt: null,
    };
  }
  const end = periodBoundary(now, plan.interval, plan.intervalCount, 1);
  return {
    trigger: 'create_active',
    chargeNow: true,
    billingAnchor: now,
    currentPeriodStart: now,
    currentPeriodEnd: end,
    nextBillingDate: end,
    trialStart: null,
    trialEnd: null,
    startAt: null,
  };
}
