import { PlanListItem, PlanView } from '@app/contracts';
import { PlanEntity } from './plan.entity';

export function toPlanView(p: PlanEntity): PlanView {
  return {
    id: p.id,
    merchantId: p.merchantId,
    name: p.name,
    description: p.description,
    interval: p.interval,
    intervalCount: p.intervalCount,
    amount: p.amount,
    currency: p.currency,
    exponent: p.exponent,
    trialPeriodDays: p.trialPeriodDays,
    introAmount: p.introAmount,
    introBillingCycles: p.introBillingCycles,
    maxBillingCycles: p.maxBillingCycles,
    availableCountries: p.availableCountries,
    isActive: p.isActive,
    meterCodes: p.meterCodes,
    archivedAt: p.archivedAt ? p.archivedAt.toISOString() : null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export const toPlanListItem = (p: PlanEntity, subscriberCount: number): PlanListItem => ({
  ...toPlanView(p),
  subscriberCount,
});
