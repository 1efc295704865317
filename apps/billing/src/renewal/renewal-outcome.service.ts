import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EventType, PaymentResponse } from '@app/contracts';
import { BillingEvents } from '../billing-events';
import { applyInvoiceTransition } from '../invoice/invoice-state';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { toInvoiceView } from '../invoice/invoice.view';
import { PlanRepository } from '../plan/plan.repository';
import { applySubscriptionTransition, canTransition } from '../subscription/subscription-state';
import { SubscriptionEntity } from '../subscription/subscription.entity';
import { SubscriptionRepository } from '../subscription/subscription.repository';
import { toSubscriptionView } from '../subscription/subscription.view';
import { ChargeAttempt } from './charge-attempt';
import { RenewalRepository } from './renewal.repository';
import { dunningRetryAt } from './renewal-schedule';

/** `scheduled`: the renewal or a dunning retry; `forced`: POST retry-payment (DECISIONS §5: off the schedule). */
export type AttemptMode = 'scheduled' | 'forced';

export type Recorded =
  | { kind: 'paid'; subscription: SubscriptionEntity }
  | { kind: 'declined'; subscription: SubscriptionEntity }
  /** Someone else recorded this attempt (same key, same payment) or the invoice left `open` meanwhile. */
  | { kind: 'stale'; subscription: SubscriptionEntity | null; reverse: boolean };

const approved = (p: Pick<PaymentResponse, 'status'>): boolean => p.status === 'captured' || p.status === 'authorized';

/**
 * Transaction 2 of a step: the payments answer recorded on the invoice and the subscription, through both
 * transition tables, and the lease released. Success pays the invoice and (re)activates; a decline starts or
 * continues dunning (DECISIONS §5). An attempt recorded already (the same key answered twice) changes nothing.
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

  record(a: ChargeAttempt, payment: PaymentResponse | null, mode: AttemptMode): Promise<Recorded> {
    return this.db.transaction(async (manager) => {
      const s = await this.renewals.lockSubscription(manager, a.subscriptionId);
      const invoice = await this.renewals.lockInvoice(manager, a.invoiceId);
      await this.renewals.release(a.subscriptionId, manager);
      if (!s || !invoice || invoice.status !== 'open' || invoice.paymentAttemptCount >= a.attempt) {
        const paidByIt = invoice?.attempts.some((t) => t.paymentId === payment?.id) ?? false;
        return { kind: 'stale', subscription: s, reverse: !!payment && approved(payment) && !paidByIt };
      }
      const plan = (await this.plans.find(s, s.planId, manager))!;
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
      s.updatedAt = a.at;
      const subscriptionEvents: EventType[] = [];
      let invoiceEvent: EventType | null = null;
      const ok = !payment || approved(payment);
      if (ok) {
        invoiceEvent = applyInvoiceTransition(invoice, 'pay');
        invoice.paidAt = a.at;
        subscriptionEvents.push(...this.paid(s, a.at));
      } else {
        const terminal = payment!.refusalCode?.recoveryAction === 'terminal';
        const failed = this.declined(s, invoice, mode, terminal);
        subscriptionEvents.push(...failed.events);
        if (failed.failInvoice) invoiceEvent = applyInvoiceTransition(invoice, 'fail');
      }
      await this.invoices.save(manager, invoice);
      await this.subscriptions.save(manager, s);
      if (invoiceEvent) await this.events.emit(manager, s, [invoiceEvent], toInvoiceView(invoice), a.at);
      await this.events.emit(manager, s, subscriptionEvents, toSubscriptionView(s, plan), a.at);
      return { kind: ok ? 'paid' : 'declined', subscription: s };
    });
  }

  /** Paid: renewed, activated (trial end, deferred start) or reactivated (dunning); the next renewal is due. */
  private paid(s: SubscriptionEntity, at: Date): readonly EventType[] {
    const trigger =
      s.status === 'active'
        ? 'renew'
        : s.status === 'past_due'
          ? 'recover'
          : s.status === 'trialing' || s.status === 'pending'
            ? 'activate'
            : null;
    s.cyclesCompleted += 1;
    // Paused or cancelled meanwhile: the invoice is paid, the status is the merchant's last word.
    if (!trigger || !canTransition(s.status, trigger)) return [];
    const events = applySubscriptionTransition(s, trigger);
    s.dunningAttemptCount = 0;
    s.activatedAt ??= at;
    s.nextBillingDate = s.currentPeriodEnd;
    return events;
  }

  /**
   * Declined. A scheduled renewal makes the subscription past_due (count 0, first retry at +1 day); a failed
   * dunning retry counts and waits for the next one (+3, +5, +7 days); a terminal refusal or the fourth failed
   * retry fails the invoice and suspends. A forced retry only records its attempt.
   */
  private declined(
    s: SubscriptionEntity,
    invoice: InvoiceEntity,
    mode: AttemptMode,
    terminal: boolean,
  ): { events: EventType[]; failInvoice: boolean } {
    const events: EventType[] = [];
    if (mode === 'forced') {
      if (canTransition(s.status, 'retry_failed')) events.push(...applySubscriptionTransition(s, 'retry_failed'));
      return { events, failInvoice: false };
    }
    if (s.status === 'past_due') {
      events.push(...applySubscriptionTransition(s, 'retry_failed'));
      s.dunningAttemptCount += 1;
    } else if (canTransition(s.status, 'fail_renewal')) {
      events.push(...applySubscriptionTransition(s, 'fail_renewal'));
      s.dunningAttemptCount = 0;
    } else {
      return { events, failInvoice: false };
    }
    const retryAt = dunningRetryAt(invoice.periodStart, s.dunningAttemptCount);
    if (!terminal && retryAt) {
      s.nextBillingDate = retryAt;
      return { events, failInvoice: false };
    }
    events.push(...applySubscriptionTransition(s, 'suspend'));
    s.suspendedAt = invoice.updatedAt;
    s.nextBillingDate = null;
    return { events, failInvoice: true };
  }
}
