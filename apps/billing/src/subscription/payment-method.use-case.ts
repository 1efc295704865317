import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, EventTypes, PaymentMethodCommand, PaymentResponse, SubscriptionView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { LeasedRun, LeasedUseCase, UseCase } from '@app/idempotency';
import { paidInvoice } from '../invoice/invoice-factory';
import { invoiceAttempt } from '../invoice/invoice-attempt';
import { applyInvoiceTransition } from '../invoice/invoice-state';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { toInvoiceView } from '../invoice/invoice.view';
import { approvedOrDeclined, PaymentsClient, PresentCard } from '../payments/payments.client';
import { cycleAmount, PlanEntity } from '../plan/plan.entity';
import { instrumentOf } from './card-instrument';
import { lockUnchanged } from './subscription-lock';
import { applyDecision, decide, PaymentMethodDecision } from './subscription-policy';
import { SubscriptionEntity } from './subscription.entity';
import { BillingDesk } from './billing-desk';
import { toSubscriptionView } from './subscription.view';

/** What the new card pays while it is being stored (the policy's answer) and the open invoice it pays. */
type Recovery = { pays: PaymentMethodDecision['pays']; invoice: InvoiceEntity | null };

/**
 * POST /v1/subscription/{id}/payment-method: the card is replaced through a new CIT. An
 * active, trialing, paused or pending subscription only verifies and stores it; a past_due one pays its open
 * invoice with it, a suspended one a new period starting now, and either becomes active. A decline is 402
 * and changes nothing.
 */
@UseCase({ operation: 'subscription.payment-method', idempotency: 'leased' })
export class PaymentMethodUseCase extends LeasedUseCase<PaymentMethodCommand, SubscriptionView> {
  constructor(
    private readonly desk: BillingDesk,
    private readonly payments: PaymentsClient,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(ctx: CallerContext, body: PaymentMethodCommand, run: LeasedRun): Promise<SubscriptionView> {
    const instrument = instrumentOf(body.card);
    if (instrument.mode !== 'cit') {
      throw DomainError.validation('A new payment method is a new CIT: send cardData or nonceData', 'card.tokenData');
    }
    const subscription = await this.desk.subscriptions.find(ctx, body.id);
    if (!subscription) throw DomainError.notFound('subscription', 'id');
    const plan = (await this.desk.plans.find(ctx, subscription.planId))!;
    const [invoice] = await this.desk.transaction((m) => this.desk.invoices.openOf(m, subscription.id));
    // Refused here (409) when the subscription's state allows no new card, before any charge.
    const { pays } = this.decision(subscription, plan, invoice, this.clock.now(ctx));
    const recovery: Recovery = { pays, invoice: pays === 'open_invoice' ? invoice : null };
    const payment = await this.charge(ctx, subscription, plan, instrument.card, recovery, run);
    return this.payments.recordedOrReversed(ctx, payment.id, run.callKey('reverse'), () =>
      this.record(ctx, subscription, plan, recovery, payment, run),
    );
  }

  private decision(
    subscription: SubscriptionEntity,
    plan: PlanEntity,
    openInvoice: InvoiceEntity | null | undefined,
    now: Date,
  ): PaymentMethodDecision {
    return decide(subscription, { kind: 'new_payment_method', plan, openInvoice: !!openInvoice }, now);
  }

  private async charge(
    ctx: CallerContext,
    subscription: SubscriptionEntity,
    plan: PlanEntity,
    card: PresentCard,
    recovery: Recovery,
    run: LeasedRun,
  ): Promise<PaymentResponse> {
    const key = run.callKey(recovery.pays === 'nothing' ? 'verify' : recovery.pays);
    const charge = {
      key,
      orderCode: `sub_${subscription.id}_${key}`,
      currency: plan.currency,
      exponent: plan.exponent,
      shopperId: subscription.id,
      email: subscription.customerEmail,
      name: subscription.customerName ?? undefined,
      metadata: subscription.metadata,
    };
    const payment =
      recovery.pays === 'nothing'
        ? await this.payments.verify(ctx, card, charge)
        : await this.payments.cit(ctx, card, {
            ...charge,
            value: recovery.invoice ? recovery.invoice.amount : cycleAmount(plan, subscription.cyclesCompleted + 1),
          });
    const approved = approvedOrDeclined(payment);
    if (!approved.token) throw new Error(`Payment ${approved.id} approved without a token`);
    return approved;
  }

  private async record(
    ctx: CallerContext,
    seen: SubscriptionEntity,
    plan: PlanEntity,
    recovery: Recovery,
    payment: PaymentResponse,
    run: LeasedRun,
  ): Promise<SubscriptionView> {
    const now = this.clock.now(ctx);
    let recovered: (() => void) | null = null;
    const answer = await this.desk.transaction(async (manager) => {
      recovered = null;
      const subscription = await lockUnchanged(manager, this.desk.subscriptions, ctx, seen);
      const startReason = subscription.dunning?.startReason ?? 'unknown';
      subscription.cardToken = payment.token!.token;
      subscription.cardBrand = payment.card?.cardData.brand ?? subscription.cardBrand;
      subscription.networkTransactionId = payment.card?.networkTransactionId ?? null;
      subscription.networkReferenceId = payment.card?.networkReferenceId ?? null;
      // A new card: the account updater's marks were about the old one.
      subscription.cardCheckedFor = null;
      subscription.cardClosedAt = null;
      const decision = this.decision(subscription, plan, recovery.invoice, now);
      if (decision.pays !== recovery.pays)
        throw DomainError.invalidState('The subscription changed meanwhile; try again');
      if (decision.pays !== 'nothing') {
        await this.payInvoice(manager, ctx, subscription, plan, recovery, decision, payment, now);
        if (recovery.invoice) {
          const { currency, amount } = recovery.invoice;
          const connection = payment.connectionCode ?? 'none';
          recovered = () => this.desk.events.recovery.recoveredInvoice(startReason, connection, currency, amount);
        }
        subscription.dunning = null;
      }
      const events = applyDecision(subscription, decision);
      await this.desk.subscriptions.save(manager, subscription);
      const view = toSubscriptionView(subscription, plan);
      await this.desk.events.emit(manager, ctx, events, view, now);
      await run.answer(manager, view);
      return view;
    });
    (recovered as (() => void) | null)?.();
    return answer;
  }

  /** Past due: the open invoice is paid by the new card. Suspended: a new period starting now, paid. */
  private async payInvoice(
    manager: EntityManager,
    ctx: CallerContext,
    subscription: SubscriptionEntity,
    plan: PlanEntity,
    recovery: Recovery,
    decision: PaymentMethodDecision,
    payment: PaymentResponse,
    now: Date,
  ): Promise<void> {
    const invoice = recovery.invoice;
    if (invoice) {
      const event = applyInvoiceTransition(invoice, 'pay');
      invoice.attempts = [...invoice.attempts, { ...invoiceAttempt(now, payment), refusalCode: null }];
      invoice.paymentAttemptCount += 1;
      invoice.paidAt = now;
      invoice.updatedAt = now;
      await this.desk.invoices.save(manager, invoice);
      // A past-due invoice paid: revenue recovered.
      await this.desk.events.emit(
        manager,
        ctx,
        [event, EventTypes.invoicePaymentRecovered],
        toInvoiceView(invoice),
        now,
      );
      return;
    }
    const { invoice: paid, events } = paidInvoice({
      subscription,
      plan,
      periodStart: decision.set.currentPeriodStart!,
      periodEnd: decision.set.currentPeriodEnd!,
      amount: cycleAmount(plan, subscription.cyclesCompleted + 1),
      payment,
      description: plan.name,
      now,
    });
    await this.desk.invoices.insert(manager, paid);
    await this.desk.events.emit(manager, ctx, events, toInvoiceView(paid), now);
  }
}
