import { Injectable } from '@nestjs/common';
import { uuidv7 } from '@app/clock';
import { EventType } from '@app/contracts';
import { BillingDesk } from '../subscription/billing-desk';
import { declinedLast } from '../invoice/invoice-attempt';
import { applyInvoiceTransition, INVOICE_MACHINE } from '../invoice/invoice-state';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { toInvoiceView } from '../invoice/invoice.view';
import { cycleAmount, PlanEntity } from '../plan/plan.entity';
import { applyDecision, decide, RenewalDecision, renewalDueAt } from '../subscription/subscription-policy';
import { SubscriptionEntity } from '../subscription/subscription.entity';
import { toSubscriptionView } from '../subscription/subscription.view';
import { MeterEntity } from '../meter/meter.entity';
import type { Aggregation } from '../usage/aggregate';
import { UsageRepository } from '../usage/usage.repository';
import { ChargeAttempt } from './charge-attempt';
import { RenewalRepository } from './renewal.repository';
import { renewalLines, renewalPeriod } from './renewal-schedule';

type Renewal = Extract<RenewalDecision, { step: 'renew' }>;

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
 * tables as the subscription policy decides. No payments call here: the caller makes them after commit.
 */
@Injectable()
export class RenewalOpeningService {
  constructor(
    private readonly desk: BillingDesk,
    private readonly renewals: RenewalRepository,
    private readonly usage: UsageRepository,
  ) {}

  /** Each step's decision, by subscription id. A failure (e.g. an invoice for the period exists) fails all. */
  openMany(steps: readonly DueStep[]): Promise<Map<string, Opened>> {
    return this.desk.transaction(async (manager) => {
      const at = new Map(steps.map((step) => [step.id, step.at]));
      const opened = new Map<string, Opened>(steps.map((step) => [step.id, { kind: 'done' }]));
      const writes = new OpeningWrites();
      // Usage locks before row locks, the order ingestion takes them in (no cycle between the two).
      await this.usage.lockForRating(manager, [...at.keys()]);
      const locked = await this.renewals.lockSubscriptions(manager, [...at.keys()]);
      const due = locked.filter((s) => renewalDueAt(s, at.get(s.id)!));
      const dueIds = new Set(due.map((s) => s.id));
      writes.released.push(...[...at.keys()].filter((id) => !dueIds.has(id)));
      const openInvoices = new Map<string, InvoiceEntity>();
      // At most one per subscription: a renewal opens an invoice only when none is open.
      for (const i of await this.desk.invoices.openOfMany(manager, [...dueIds])) {
        if (!openInvoices.has(i.subscriptionId)) openInvoices.set(i.subscriptionId, i);
      }
      const plans = await this.desk.plans.findMany(
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
      const renewing: Array<{ s: SubscriptionEntity; plan: PlanEntity; decision: Renewal }> = [];
      for (const s of due) {
        const when = at.get(s.id)!;
        const open = openInvoices.get(s.id);
        const plan = planOf(s, s.planId);
        const decision = decide(s, { kind: 'renewal_due', plan, openInvoice: !!open }, when);
        if (open) opened.set(s.id, { kind: 'charge', attempt: attemptOf(s, open, when) });
        else if (decision.step === 'renew') renewing.push({ s, plan, decision });
        else finish(writes, s, plan, applyDecision(s, decision), when);
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
      for (const { s, plan, decision } of renewing) {
        const attempt = renew(writes, s, decision, metersOf(plan), totals.get(s.id) ?? new Map(), at.get(s.id)!, (id) =>
          planOf(s, id),
        );
        opened.set(s.id, { kind: 'charge', attempt });
      }
      await this.usage.markBilledThrough(manager, writes.billed);
      await this.desk.invoices.insertMany(manager, writes.invoices);
      await this.desk.subscriptions.updateMany(manager, writes.subscriptions);
      await this.renewals.releaseMany(writes.released, manager);
      for (const e of writes.events) await this.desk.events.emit(manager, e.s, e.types, e.data, e.at);
      return opened;
    });
  }
}

/**
 * A renewal: the closing period's usage rated, the policy's moves made (a trial ending, a plan change taking
 * over), the next period invoiced.
 */
function renew(
  writes: OpeningWrites,
  s: SubscriptionEntity,
  decision: Renewal,
  meters: readonly MeterEntity[],
  totals: ReadonlyMap<string, Record<Aggregation, number>>,
  at: Date,
  planOf: (id: number) => PlanEntity,
): ChargeAttempt {
  const start = decision.from;
  writes.billed.push({ id: s.id, through: start });
  const plan = planOf(decision.planId);
  const subscriptionEvents = applyDecision(s, decision);
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

/** A step that charges nothing (a deferred start's trial begins, or maxBillingCycles paid): the lease goes back. */
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
    declinedLast: declinedLast(invoice),
    cardClosed: s.cardClosedAt !== null,
    email: s.customerEmail,
    name: s.customerName,
    metadata: s.metadata,
    at,
  };
}
