import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EventType, PaymentResponse } from '@app/contracts';
import { inTransaction } from '@app/database';
import { BillingEvents } from '../billing-events';
import { applyInvoiceTransition } from '../invoice/invoice-state';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { toInvoiceView } from '../invoice/invoice.view';
import { PlanRepository } from '../plan/plan.repository';
import {
  applyDecision,
  AttemptMode,
  decide,
  DEFAULT_DUNNING_SCHEDULE,
  OutcomeDecision,
} from '../subscription/subscription-policy';
import { SubscriptionEntity } from '../subscription/subscription.entity';
import { SubscriptionRepository } from '../subscription/subscription.repository';
import { toSubscriptionView } from '../subscription/subscription.view';
import { ChargeAttempt } from './charge-attempt';
import { RenewalRepository } from './renewal.repository';

export type Recorded =
  | { kind: 'paid'; subscription: SubscriptionEntity }
  | { kind: 'declined'; subscription: SubscriptionEntity }
  /** Someone else recorded this attempt (same key, same payment) or the invoice left `open` meanwhile. */
  | { kind: 'stale'; subscription: SubscriptionEntity | null; reverse: boolean };

/** A payments answer to record: the attempt, what payments said (null: nothing to charge), and why it ran. */
export interface ChargedAttempt {
  attempt: ChargeAttempt;
  payment: PaymentResponse | null;
  mode: AttemptMode;
}

const byId = <T extends { id: string }>(rows: readonly T[]): Map<string, T> => new Map(rows.map((r) => [r.id, r]));

const approved = (p: Pick<PaymentResponse, 'status'>): boolean => p.status === 'captured' || p.status === 'authorized';

/**
 * Transaction 2 of a step: the payments answer recorded on the invoice and the subscription, through both
 * transition tables, and the lease released, as the subscription policy decides: success pays the invoice
 * and (re)activates; a decline starts or continues dunning. An attempt recorded already (the same key
 * answered twice) changes nothing.
 */
@Injectable()
export class RenewalOutcomeService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly renewals: RenewalRepository,
    private readonly subscriptions: SubscriptionRepository,
    private readonly invoices: InvoiceRepository,
    private readonly plans: PlanRepository,
    private readonly events: BillingEvents,
  ) {}

  /** One attempt's record (a forced retry, a payment-method recovery): `recordMany` of one. */
  async record(a: ChargeAttempt, payment: PaymentResponse | null, mode: AttemptMode): Promise<Recorded> {
    const [recorded] = await this.recordMany([{ attempt: a, payment, mode }]);
    return recorded;
  }

  /**
   * The answers of a batch of attempts (distinct subscriptions), in one short pipelined transaction: the
   * subscriptions and invoices locked in id order, each outcome decided in memory, every row and event
   * written with the commit. Answers each attempt's record, in the order given.
   */
  recordMany(charged: readonly ChargedAttempt[]): Promise<Recorded[]> {
    if (!charged.length) return Promise.resolve([]);
    return inTransaction(this.db, async (manager) => {
      const ids = charged.map((c) => c.attempt.subscriptionId);
      const subscriptions = byId(await this.renewals.lockSubscriptions(manager, ids));
      const invoices = byId(
        await this.renewals.lockInvoices(
          manager,
          charged.map((c) => c.attempt.invoiceId),
        ),
      );
      const plans = await this.plans.findMany(
        manager,
        [...subscriptions.values()].map((s) => s.planId),
      );
      const changedInvoices: InvoiceEntity[] = [];
      const changedSubscriptions: SubscriptionEntity[] = [];
      const events: Array<{ s: SubscriptionEntity; types: readonly EventType[]; data: object; at: Date }> = [];
      const recorded = charged.map(({ attempt: a, payment, mode }): Recorded => {
        const s = subscriptions.get(a.subscriptionId) ?? null;
        const invoice = invoices.get(a.invoiceId);
        if (!s || !invoice || invoice.status !== 'open' || invoice.paymentAttemptCount >= a.attempt) {
          const paidByIt = invoice?.attempts.some((t) => t.paymentId === payment?.id) ?? false;
          return { kind: 'stale', subscription: s, reverse: !!payment && approved(payment) && !paidByIt };
        }
        const plan = plans.get(s.planId)!;
        const outcome = this.apply(s, invoice, a, payment, mode);
        changedInvoices.push(invoice);
        changedSubscriptions.push(s);
        if (outcome.invoiceEvent) {
          events.push({ s, types: [outcome.invoiceEvent], data: toInvoiceView(invoice), at: a.at });
        }
        events.push({ s, types: outcome.subscriptionEvents, data: toSubscriptionView(s, plan), at: a.at });
        return { kind: outcome.ok ? 'paid' : 'declined', subscription: s };
      });
      await this.invoices.updateMany(manager, changedInvoices);
      // Every lease of the batch is freed: a changed row's in its update (one row version), the others' alone.
      await this.subscriptions.updateManyAndRelease(manager, changedSubscriptions);
      const changed = new Set(changedSubscriptions.map((s) => s.id));
      await this.renewals.releaseMany(
        ids.filter((id) => !changed.has(id)),
        manager,
      );
      for (const e of events) await this.events.emit(manager, e.s, e.types, e.data, e.at);
      return recorded;
    });
  }

  /** One attempt's answer on its invoice and subscription, as the subscription policy decides it. */
  private apply(
    s: SubscriptionEntity,
    invoice: InvoiceEntity,
    a: ChargeAttempt,
    payment: PaymentResponse | null,
    mode: AttemptMode,
  ): { ok: boolean; invoiceEvent: EventType | null; subscriptionEvents: EventType[] } {
    if (payment) {
      invoice.attempts = [
        ...invoice.attempts,
        {
          at: a.at.toISOString(),
          paymentId: payment.id,
          status: payment.status,
          refusalCode: payment.refusalCode ?? null,
        },
      ];
    }
    invoice.paymentAttemptCount = a.attempt;
    invoice.updatedAt = a.at;
    const ok = !payment || approved(payment);
    const decision: OutcomeDecision = ok
      ? decide(s, { kind: 'paid' }, a.at)
      : decide(
          s,
          {
            kind: 'declined',
            mode,
            terminal: payment!.refusalCode?.recoveryAction === 'terminal',
            scheduledAt: invoice.periodStart,
            schedule: DEFAULT_DUNNING_SCHEDULE,
          },
          a.at,
        );
    const subscriptionEvents = applyDecision(s, decision);
    const invoiceEvent = decision.invoice ? applyInvoiceTransition(invoice, decision.invoice) : null;
    if (decision.invoice === 'pay') invoice.paidAt = a.at;
    return { ok, invoiceEvent, subscriptionEvents };
  }
}
