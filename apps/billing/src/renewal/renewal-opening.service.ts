import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { EventType } from '@app/contracts';
import { inTransaction } from '@app/database';
import { BillingEvents } from '../billing-events';
import { applyInvoiceTransition, INVOICE_MACHINE } from '../invoice/invoice-state';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { toInvoiceView } from '../invoice/invoice.view';
import { cycleAmount, PlanEntity } from '../plan/plan.entity';
import { PlanRepository } from '../plan/plan.repository';
import { applySubscriptionTransition } from '../subscription/subscription-state';
import { SubscriptionEntity } from '../subscription/subscription.entity';
import { SubscriptionRepository } from '../subscription/subscription.repository';
import { toSubscriptionView } from '../subscription/subscription.view';
import { MeterEntity } from '../meter/meter.entity';
import type { Aggregation } from '../usage/aggregate';
import { UsageRepository } from '../usage/usage.repository';
import { ChargeAttempt } from './charge-attempt';
import { RenewalRepository } from './renewal.repository';
import { renewalLines, renewalPeriod } from './renewal-schedule';

/** What the first short transaction of a step decided: a charge to make, or nothing left to charge. */
export type Opened = { kind: 'charge'; attempt: ChargeAttempt } | { kind: 'done' };

/** A leased subscription and the instant its step runs as of. */
export interface DueStep {
  id: string;
  at: Date;
}

/** What a batch writes at its commit, gathered while each subscription's step is decided. */
class OpeningWrites {
  readonly subscriptions: SubscriptionEntity[] = [];
  readonly invoices: InvoiceEntity[] = [];
  readonly released: string[] = [];
  readonly billed: Array<{ id: string; through: Date }> = [];
  readonly events: Array<{ s: SubscriptionEntity; types: readonly EventType[]; data: object; at: Date }> = [];
}

/**
 * Transaction 1 of the scheduled steps of a claimed batch (the subscriptions leased by the caller): trial
 * start of a deferred start, completion at maxBillingCycles, or an invoice to charge: the open one (a dunning
 * retry, or a step that died after opening it) or a new one for the next period, with the closing period's
 * usage rated and the period closed to late usage. One short pipelined transaction for the whole batch: a
 * handful of statements whatever its size, each subscription decided in memory through the transition
 * tables. No payments call here: the caller makes them after commit.
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

  /** Each step's decision, by subscription id. A failure (e.g. an invoice for the period exists) fails all. */
  openMany(steps: readonly DueStep[]): Promise<Map<string, Opened>> {
    return inTransaction(this.db, async (manager) => {
      const at = new Map(steps.map((step) => [step.id, step.at]));
      const opened = new Map<string, Opened>(steps.map((step) => [step.id, { kind: 'done' }]));
      const writes = new OpeningWrites();
      // Usage locks before row locks, the order ingestion takes them in (no cycle between the two).
      await this.usage.lockForRating(manager, [...at.keys()]);
      const locked = await this.renewals.lockSubscriptions(manager, [...at.keys()]);
      const due = locked.filter((s) => isDueAt(s, at.get(s.id)!));
      const dueIds = new Set(due.map((s) => s.id));
      writes.released.push(...[...at.keys()].filter((id) => !dueIds.has(id)));
      const openInvoices = new Map<string, InvoiceEntity>();
      // At most one per subscription: a renewal opens an invoice only when none is open.
      for (const i of await this.invoices.openOfMany(manager, [...dueIds])) {
        if (!openInvoices.has(i.subscriptionId)) openInvoices.set(i.subscriptionId, i);
      }
      const plans = await this.plans.findMany(
        manager,
        due.flatMap((s) => (s.pendingPlanId === null ? [s.planId] : [s.planId, s.pendingPlanId])),
      );
      const planOf = (s: SubscriptionEntity, id: number): PlanEntity => {
        const plan = plans.get(id);
        if (!plan || plan.merchantCode !== s.merchantCode || plan.environment !== s.environment) {
          throw new Error(`Plan ${id} of subscription ${s.id} not found in its scope`);
        }
        return plan;
      };
      const renewing: Array<{ s: SubscriptionEntity; plan: PlanEntity }> = [];
      for (const s of due) {
        const when = at.get(s.id)!;
        const open = openInvoices.get(s.id);
        const plan = planOf(s, s.planId);
        if (open) opened.set(s.id, { kind: 'charge', attempt: attemptOf(s, open, when) });
        else if (s.status === 'pending' && s.trialEnd && s.trialEnd.getTime() > s.nextBillingDate!.getTime()) {
          startTrial(writes, s, plan, when);
        } else if (s.status === 'active' && plan.maxBillingCycles > 0 && s.cyclesCompleted >= plan.maxBillingCycles) {
          complete(writes, s, plan, when);
        } else renewing.push({ s, plan });
      }
      // Usage is billed in arrears: everything since the last rating up to this boundary, on the plan it ran
      // under; then that time is closed to late usage (USAGE_PERIOD_CLOSED), in this transaction.
      const metersOf = await this.renewals.meters(
        manager,
        renewing.map((r) => r.plan),
      );
      const billedThrough = await this.renewals.billedThrough(
        manager,
        renewing.map((r) => r.s.id),
      );
      const totals = await this.usage.periodTotals(
        manager,
        renewing
          .filter((r) => metersOf(r.plan).length)
          .map(({ s }) => ({
            id: s.id,
            start: billedThrough.get(s.id) ?? s.startAt ?? s.createdAt,
            end: s.nextBillingDate!,
          })),
      );
      for (const { s, plan } of renewing) {
        const attempt = renew(writes, s, plan, metersOf(plan), totals.get(s.id) ?? new Map(), at.get(s.id)!, (id) =>
          planOf(s, id),
        );
        opened.set(s.id, { kind: 'charge', attempt });
      }
      await this.usage.markBilledThrough(manager, writes.billed);
      await this.invoices.insertMany(manager, writes.invoices);
      await this.subscriptions.updateMany(manager, writes.subscriptions);
      await this.renewals.releaseMany(writes.released, manager);
      for (const e of writes.events) await this.events.emit(manager, e.s, e.types, e.data, e.at);
      return opened;
    });
  }
}

/** A renewal: the closing period's usage rated, a pending plan change applied, the next period invoiced. */
function renew(
  writes: OpeningWrites,
  s: SubscriptionEntity,
  ranUnder: PlanEntity,
  meters: readonly MeterEntity[],
  totals: ReadonlyMap<string, Record<Aggregation, number>>,
  at: Date,
  planOf: (id: number) => PlanEntity,
): ChargeAttempt {
  const start = s.nextBillingDate!;
  writes.billed.push({ id: s.id, through: start });
  const subscriptionEvents: EventType[] = [];
  let plan = ranUnder;
  if (s.status === 'trialing') subscriptionEvents.push(...applySubscriptionTransition(s, 'end_trial'));
  if (s.pendingPlanId !== null && s.status === 'active') {
    plan = planOf(s.pendingPlanId);
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
  writes.invoices.push(invoice);
  writes.subscriptions.push(s);
  writes.events.push({ s, types: subscriptionEvents, data: toSubscriptionView(s, plan), at });
  writes.events.push({ s, types: [invoiceEvent], data: toInvoiceView(invoice), at });
  return attemptOf(s, invoice, at);
}

/** A deferred start with a trial: the trial begins at startAt; nothing is charged until it ends. */
function startTrial(writes: OpeningWrites, s: SubscriptionEntity, plan: PlanEntity, at: Date): void {
  const events = applySubscriptionTransition(s, 'start_trial');
  Object.assign(s, {
    currentPeriodStart: s.nextBillingDate,
    currentPeriodEnd: s.trialEnd,
    nextBillingDate: s.trialEnd,
    updatedAt: at,
  });
  finish(writes, s, plan, events, at);
}

/** maxBillingCycles paid: the subscription ends with its last paid period. */
function complete(writes: OpeningWrites, s: SubscriptionEntity, plan: PlanEntity, at: Date): void {
  const events = applySubscriptionTransition(s, 'complete');
  Object.assign(s, { completedAt: at, nextBillingDate: null, updatedAt: at });
  finish(writes, s, plan, events, at);
}

function finish(
  writes: OpeningWrites,
  s: SubscriptionEntity,
  plan: PlanEntity,
  events: readonly EventType[],
  at: Date,
): void {
  writes.subscriptions.push(s);
  writes.released.push(s.id);
  writes.events.push({ s, types: events, data: toSubscriptionView(s, plan), at });
}

const isDueAt = (s: SubscriptionEntity, at: Date): boolean =>
  s.nextBillingDate !== null && s.nextBillingDate.getTime() <= at.getTime() && isDue(s);

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
    status: INVOICE_MACHINE.spec.initial,
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
