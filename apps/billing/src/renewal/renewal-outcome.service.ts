import { Injectable } from '@nestjs/common';
import { EventType, EventTypes, PaymentResponse, RefusalCodeDto } from '@app/contracts';
import { BillingDesk } from '../subscription/billing-desk';
import { reasonLabel } from '../recovery/recovery-metrics';
import { nextRetry } from '../recovery/recovery-policy';
import { LoadedPolicies, RecoveryPolicyRepository } from '../recovery/recovery-policy.repository';
import { invoiceAttempt } from '../invoice/invoice-attempt';
import { applyInvoiceTransition } from '../invoice/invoice-state';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { toInvoiceView } from '../invoice/invoice.view';
import { applyDecision, AttemptMode, decide } from '../subscription/subscription-policy';
import { SubscriptionEntity } from '../subscription/subscription.entity';
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
  /** Not sent to payments, since it cannot succeed: recorded as this refusal, with no charge on the invoice. */
  notSent?: RefusalCodeDto;
}

const byId = <T extends { id: string }>(rows: readonly T[]): Map<string, T> => new Map(rows.map((r) => [r.id, r]));

const approved = (p: Pick<PaymentResponse, 'status'>): boolean => p.status === 'captured' || p.status === 'authorized';

/** Paid: approved, or nothing to charge (a zero amount); not a charge that was not sent. */
const succeeded = (c: ChargedAttempt): boolean => !c.notSent && (!c.payment || approved(c.payment));

/**
 * Transaction 2 of a step: the payments answer recorded on the invoice and the subscription, through both
 * transition tables, and the lease released, as the subscription policy decides: success pays the invoice
 * and (re)activates; a decline starts or continues dunning. An attempt recorded already (the same key
 * answered twice) changes nothing.
 */
@Injectable()
export class RenewalOutcomeService {
  constructor(
    private readonly desk: BillingDesk,
    private readonly renewals: RenewalRepository,
    private readonly policies: RecoveryPolicyRepository,
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
  async recordMany(charged: readonly ChargedAttempt[]): Promise<Recorded[]> {
    if (!charged.length) return [];
    const { recorded, counted } = await this.desk.transaction(async (manager) => {
      // The recovery metrics of the batch, counted once it commits.
      const counted: Array<() => void> = [];
      const ids = charged.map((c) => c.attempt.subscriptionId);
      const subscriptions = byId(await this.renewals.lockSubscriptions(manager, ids));
      const invoices = byId(
        await this.renewals.lockInvoices(
          manager,
          charged.map((c) => c.attempt.invoiceId),
        ),
      );
      const plans = await this.desk.plans.findMany(
        manager,
        [...subscriptions.values()].map((s) => s.planId),
      );
      // Recovery policies only for the batch's declines (a batch of paid renewals reads none).
      const declined = charged.filter((c) => !succeeded(c)).map((c) => c.attempt);
      const scopes = new Map(declined.map((a) => [`${a.environment}:${a.merchantCode}`, a]));
      const policies = await this.policies.load(manager, [...scopes.values()]);
      const changedInvoices: InvoiceEntity[] = [];
      const changedSubscriptions: SubscriptionEntity[] = [];
      const events: Array<{ s: SubscriptionEntity; types: readonly EventType[]; data: object; at: Date }> = [];
      const recorded = charged.map((c): Recorded => {
        const { attempt: a, payment } = c;
        const s = subscriptions.get(a.subscriptionId) ?? null;
        const invoice = invoices.get(a.invoiceId);
        if (!s || !invoice || invoice.status !== 'open' || invoice.paymentAttemptCount >= a.attempt) {
          const paidByIt = invoice?.attempts.some((t) => t.paymentId === payment?.id) ?? false;
          return { kind: 'stale', subscription: s, reverse: !!payment && approved(payment) && !paidByIt };
        }
        const plan = plans.get(s.planId)!;
        const outcome = this.apply(s, invoice, c, policies, counted);
        changedInvoices.push(invoice);
        changedSubscriptions.push(s);
        if (outcome.invoiceEvents.length) {
          events.push({ s, types: outcome.invoiceEvents, data: toInvoiceView(invoice), at: a.at });
        }
        events.push({ s, types: outcome.subscriptionEvents, data: toSubscriptionView(s, plan), at: a.at });
        return { kind: outcome.ok ? 'paid' : 'declined', subscription: s };
      });
      await this.desk.invoices.updateMany(manager, changedInvoices);
      // Every lease of the batch is freed: a changed row's in its update (one row version), the others' alone.
      await this.desk.subscriptions.updateManyAndRelease(manager, changedSubscriptions);
      const changed = new Set(changedSubscriptions.map((s) => s.id));
      await this.renewals.releaseMany(
        ids.filter((id) => !changed.has(id)),
        manager,
      );
      for (const e of events) await this.desk.events.emit(manager, e.s, e.types, e.data, e.at);
      return { recorded, counted };
    });
    for (const count of counted) count();
    return recorded;
  }

  /** One attempt's answer on its invoice and subscription, as the subscription policy decides it. */
  private apply(
    s: SubscriptionEntity,
    invoice: InvoiceEntity,
    charged: ChargedAttempt,
    policies: LoadedPolicies,
    counted: Array<() => void>,
  ): { ok: boolean; invoiceEvents: EventType[]; subscriptionEvents: EventType[] } {
    const { attempt: a, payment, mode } = charged;
    if (payment) {
      invoice.attempts = [...invoice.attempts, invoiceAttempt(a.at, payment)];
      invoice.paymentAttemptCount = a.attempt;
    }
    invoice.updatedAt = a.at;
    s.updatedAt = a.at;
    const ok = succeeded(charged);
    // A charge of a past-due invoice: a dunning or forced retry of a run under way.
    const run = s.status === 'past_due' ? { startReason: s.dunning?.startReason ?? 'unknown' } : null;
    if (run && payment) {
      const connection = payment.connectionCode ?? 'none';
      counted.push(() => this.desk.events.recovery.retried(connection, ok ? 'approved' : 'declined'));
    }
    if (ok) {
      const subscriptionEvents = applyDecision(s, decide(s, { kind: 'paid' }, a.at));
      s.dunning = null;
      const invoiceEvents = [applyInvoiceTransition(invoice, 'pay')];
      invoice.paidAt = a.at;
      if (run) {
        invoiceEvents.push(EventTypes.invoicePaymentRecovered);
        const { currency, amount } = invoice;
        const connection = payment?.connectionCode ?? 'none';
        counted.push(() => this.desk.events.recovery.recoveredInvoice(run.startReason, connection, currency, amount));
      }
      return { ok, invoiceEvents, subscriptionEvents };
    }
    const refusal = charged.notSent ?? payment?.refusalCode ?? null;
    const tried = { refusal, connectionCode: payment?.connectionCode ?? null };
    return { ok, ...this.declined(s, invoice, mode, tried, policies, a.at, counted) };
  }

  /**
   * Declined: the subscription policy's moves under the run's recovery policy: the version the run started
   * with (a run starting now records the current one), so a policy change never moves a run under way.
   */
  private declined(
    s: SubscriptionEntity,
    invoice: InvoiceEntity,
    mode: AttemptMode,
    tried: { refusal: RefusalCodeDto | null; connectionCode: string | null },
    policies: LoadedPolicies,
    at: Date,
    counted: Array<() => void>,
  ): { invoiceEvents: EventType[]; subscriptionEvents: EventType[] } {
    const { refusal } = tried;
    const startsRun = s.status !== 'past_due';
    const startReason = startsRun ? reasonLabel(refusal?.reasonCode) : (s.dunning?.startReason ?? 'unknown');
    const scheduledAt = invoice.periodStart;
    // A run under way keeps its version (0 for one that started before runs recorded it).
    const version = s.status === 'past_due' ? (s.dunning?.policyVersion ?? 0) : policies.currentVersion(s);
    const rules = policies.rules(s, version);
    const decision = decide(
      s,
      {
        kind: 'declined',
        mode,
        terminal: refusal?.recoveryAction === 'terminal',
        scheduledAt,
        // A card the account updater found closed cannot succeed: no retry is spent on it, it waits for a new one.
        schedule: (retriesDone) =>
          s.cardClosedAt
            ? { kind: 'await_payment_method' }
            : nextRetry(rules, { scheduledAt, retriesDone, refusal, at }),
      },
      at,
    );
    const subscriptionEvents = applyDecision(s, decision);
    const invoiceEvents = decision.invoice ? [applyInvoiceTransition(invoice, decision.invoice)] : [];
    const lastCharge = { lastRefusal: refusal, lastConnectionCode: tried.connectionCode };
    // The invoice enters dunning (the merchant's recovery figures): its renewal declined, run started or lost.
    if (startsRun && (decision.invoice === 'fail' || decision.set.dunningAttemptCount !== undefined)) {
      invoice.dunningStartedAt = at;
      invoice.dunningReason = startReason;
      invoice.dunningConnection = tried.connectionCode;
    }
    if (decision.invoice === 'fail') {
      s.dunning = null;
      counted.push(() => this.desk.events.recovery.runLost(startReason));
    } else if (decision.set.dunningAttemptCount !== undefined) {
      if (startsRun) counted.push(() => this.desk.events.recovery.runStarted(startReason));
      s.dunning = {
        policyVersion: version,
        scheduledAt: scheduledAt.toISOString(),
        startReason,
        ...lastCharge,
        waitingFor: s.nextBillingDate ? 'scheduled_retry' : 'payment_method',
      };
    } else if (s.status === 'past_due' && s.dunning) {
      s.dunning = { ...s.dunning, ...lastCharge };
    }
    return { invoiceEvents, subscriptionEvents };
  }
}
