import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { EventType } from '@app/contracts';
import { BillingEvents } from '../billing-events';
import { applyInvoiceTransition } from '../invoice/invoice-state';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { toInvoiceView } from '../invoice/invoice.view';
import { cycleAmount, PlanEntity } from '../plan/plan.entity';
import { PlanRepository } from '../plan/plan.repository';
import { applySubscriptionTransition } from '../subscription/subscription-state';
import { SubscriptionEntity } from '../subscription/subscription.entity';
import { SubscriptionRepository } from '../subscription/subscription.repository';
import { toSubscriptionView } from '../subscription/subscription.view';
import { UsageRepository } from '../usage/usage.repository';
import { ChargeAttempt } from './charge-attempt';
import { RenewalRepository } from './renewal.repository';
import { renewalLines, renewalPeriod } from './renewal-schedule';

/** What the first short transaction of a step decided: a charge to make, or nothing left to charge. */
export type Opened = { kind: 'charge'; attempt: ChargeAttempt } | { kind: 'done' };

/**
 * Transaction 1 of a scheduled step (the subscription leased by the caller): trial start of a deferred
 * start, completion at maxBillingCycles, or an invoice to charge: the open one (a dunning retry, or a step
 * that died after opening it) or a new one for the next period, with the closing period's usage rated and
 * the period closed to late usage. No payments call here (STYLE §9): the caller makes it after commit.
 */
@Injectable()
export class RenewalOpeningService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly renewals: RenewalRepository,
    private readonly subscriptions: SubscriptionRepository,
    private readonly invoices: InvoiceRepository,
    private readonly plans: PlanRepository,
    private readonly usage: UsageRepository,
    private readonly events: BillingEvents,
  ) {}

  open(subscriptionId: string, at: Date): Promise<Opened> {
    return this.db.transaction(async (manager) => {
      const s = await this.renewals.lockSubscription(manager, subscriptionId);
      if (!s || !s.nextBillingDate || s.nextBillingDate.getTime() > at.getTime() || !isDue(s)) {
        await this.renewals.release(subscriptionId, manager);
        return { kind: 'done' };
      }
      // At most one: a renewal opens an invoice only when none is open.
      const [open] = await this.invoices.openOf(manager, s.id);
      if (open) return { kind: 'charge', attempt: attemptOf(s, open, at) };
      let plan = (await this.plans.find(s, s.planId, manager))!;
      if (s.status === 'pending' && s.trialEnd && s.trialEnd.getTime() > s.nextBillingDate.getTime()) {
        return this.startTrial(manager, s, plan, at);
      }
      if (s.status === 'active' && plan.maxBillingCycles > 0 && s.cyclesCompleted >= plan.maxBillingCycles) {
        return this.complete(manager, s, plan, at);
      }
      const start = s.nextBillingDate;
      const subscriptionEvents: EventType[] = [];
      // Usage is billed in arrears: everything since the last rating up to this boundary, on the plan it ran
      // under; then that time is closed to late usage (USAGE_PERIOD_CLOSED), in this transaction.
      const meters = await this.renewals.meters(manager, s, plan.meterCodes);
      await this.usage.lockForRating(manager, s.id);
      const from = (await this.renewals.billedThrough(manager, s.id)) ?? s.startAt ?? s.createdAt;
      const totals = meters.length ? await this.usage.periodTotals(manager, s.id, from, start) : new Map();
      await this.usage.markBilledThrough(manager, s.id, start);
      if (s.status === 'trialing') subscriptionEvents.push(...applySubscriptionTransition(s, 'end_trial'));
      if (s.pendingPlanId !== null && s.status === 'active') {
        plan = (await this.plans.find(s, s.pendingPlanId, manager))!;
        subscriptionEvents.push(...applySubscriptionTransition(s, 'change_plan'));
        s.planId = plan.id;
        s.pendingPlanId = null;
        // The new plan's periods start at the boundary where it takes over.
        s.billingAnchor = start;
      }
      const period = renewalPeriod(s.billingAnchor, plan, start);
      const { lines, amount } = renewalLines(plan.name, cycleAmount(plan, s.cyclesCompleted + 1), meters, totals);
      const invoice = newInvoice(s, plan, period, amount, lines, at);
      const invoiceEvent = applyInvoiceTransition(invoice, 'issue');
      Object.assign(s, {
        billingAnchor: period.anchor,
        currentPeriodStart: period.start,
        currentPeriodEnd: period.end,
        updatedAt: at,
      });
      await this.invoices.insert(manager, invoice);
      await this.subscriptions.save(manager, s);
      await this.events.emit(manager, s, subscriptionEvents, toSubscriptionView(s, plan), at);
      await this.events.emit(manager, s, [invoiceEvent], toInvoiceView(invoice), at);
      return { kind: 'charge', attempt: attemptOf(s, invoice, at) };
    });
  }

  /** A deferred start with a trial: the trial begins at startAt; nothing is charged until it ends. */
  private async startTrial(manager: EntityManager, s: SubscriptionEntity, plan: PlanEntity, at: Date): Promise<Opened> {
    const events = applySubscriptionTransition(s, 'start_trial');
    Object.assign(s, {
      currentPeriodStart: s.nextBillingDate,
      currentPeriodEnd: s.trialEnd,
      nextBillingDate: s.trialEnd,
      updatedAt: at,
    });
    await this.finish(manager, s, plan, events, at);
    return { kind: 'done' };
  }

  /** maxBillingCycles paid: the subscription ends with its last paid period. */
  private async complete(manager: EntityManager, s: SubscriptionEntity, plan: PlanEntity, at: Date): Promise<Opened> {
    const events = applySubscriptionTransition(s, 'complete');
    Object.assign(s, { completedAt: at, nextBillingDate: null, updatedAt: at });
    await this.finish(manager, s, plan, events, at);
    return { kind: 'done' };
  }

  private async finish(
    manager: EntityManager,
    s: SubscriptionEntity,
    plan: PlanEntity,
    events: readonly EventType[],
    at: Date,
  ): Promise<void> {
    await this.subscriptions.save(manager, s);
    await this.renewals.release(s.id, manager);
    await this.events.emit(manager, s, events, toSubscriptionView(s, plan), at);
  }
}

const isDue = (s: SubscriptionEntity): boolean =>
  s.status === 'pending' || s.status === 'trialing' || s.status === 'active' || s.status === 'past_due';

function newInvoice(
  s: SubscriptionEntity,
  plan: PlanEntity,
  period: { start: Date; end: Date },
  amount: number,
  lines: InvoiceEntity['lines'],
  at: Date,
): InvoiceEntity {
  return {
    id: uuidv7(),
    subscriptionId: s.id,
    merchantCode: s.merchantCode,
    environment: s.environment,
    status: 'new' as InvoiceEntity['status'],
    amount,
    currency: plan.currency,
    exponent: plan.exponent,
    periodStart: period.start,
    periodEnd: period.end,
    paymentAttemptCount: 0,
    lines,
    attempts: [],
    paidAt: null,
    createdAt: at,
    updatedAt: at,
  };
}

export function attemptOf(s: SubscriptionEntity, invoice: InvoiceEntity, at: Date): ChargeAttempt {
  return {
    subscriptionId: s.id,
    merchantCode: s.merchantCode,
    environment: s.environment,
    merchantId: s.merchantId,
    invoiceId: invoice.id,
    attempt: invoice.paymentAttemptCount + 1,
    amount: invoice.amount,
    currency: invoice.currency,
    exponent: invoice.exponent,
    token: s.cardToken,
    networkTransactionId: s.networkTransactionId,
    email: s.customerEmail,
    name: s.customerName,
    metadata: s.metadata,
    at,
  };
}
