import { Clock, parseRfc3339 } from '@app/clock';
import {
  CallerContext,
  CreatedSubscriptionView,
  CreateSubscriptionRequest,
  EventType,
  FirstCycleView,
  PaymentResponse,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { traceParentOf } from '@app/observability';
import { LeasedRun, LeasedUseCase, UseCase } from '@app/idempotency';
import { paidInvoice } from '../invoice/invoice-factory';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { toInvoiceView } from '../invoice/invoice.view';
import { approvedOrDeclined, PaymentsClient } from '../payments/payments.client';
import { acceptsSubscribers, cycleAmount, PlanEntity } from '../plan/plan.entity';
import { Instrument, instrumentOf } from './card-instrument';
import { acceptsChild, applyDecision, CreationDecision, decide } from './subscription-policy';
import { SUBSCRIPTION_MACHINE } from './subscription-state';
import { SubscriptionEntity } from './subscription.entity';
import { BillingDesk } from './billing-desk';
import { toSubscriptionView } from './subscription.view';

/** The mandate the subscription charges: the vault token and what payments told about its card. */
interface Mandate {
  token: string;
  brand: string | null;
  networkTransactionId: string | null;
  networkReferenceId: string | null;
  /** The payment that paid cycle 1 (a charge now, or the customer's own CIT in record mode). */
  firstPayment?: Pick<PaymentResponse, 'id' | 'status'>;
  /** Set when billing itself moved money: reversed if the subscription cannot be recorded. */
  chargedPaymentId?: string;
  firstCycle?: FirstCycleView;
}

const MAX_START_AHEAD_MS = 2 * 366 * 86_400_000;

/**
 * POST /v1/subscription (and `cmd.billing.subscription.create` from payment links). Everything is checked
 * first, then one payments call charges or verifies (and vaults) the card, then one transaction records the
 * subscription, its first invoice, the events and the idempotent answer. A decline is 402 and keeps nothing.
 */
@UseCase({ operation: 'subscription.create', idempotency: 'leased' })
export class CreateSubscriptionUseCase extends LeasedUseCase<CreateSubscriptionRequest, CreatedSubscriptionView> {
  constructor(
    private readonly desk: BillingDesk,
    private readonly payments: PaymentsClient,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(
    ctx: CallerContext,
    body: CreateSubscriptionRequest,
    run: LeasedRun,
  ): Promise<CreatedSubscriptionView> {
    const now = this.clock.now(ctx);
    const instrument = instrumentOf(body.card);
    const plan = await this.desk.plans.find(ctx, body.planId);
    if (!plan) throw DomainError.notFound('plan', 'planId');
    if (!acceptsSubscribers(plan)) {
      throw DomainError.invalidState(`Plan ${plan.id} is ${plan.archivedAt ? 'archived' : 'not active'}`);
    }
    checkCountry(plan, instrument);
    const startAt = this.startAtOf(body.startAt, now);
    await this.checkParent(ctx, body);
    const subscription = newSubscription(run.resourceId, ctx, body, plan, now);
    const creation = decide(subscription, { kind: 'create', plan, startAt }, now);
    if (body.firstPaymentId !== undefined) {
      if (instrument.mode !== 'record') {
        throw DomainError.validation('firstPaymentId is for record mode (card.tokenData)', 'firstPaymentId');
      }
      if (!creation.chargeNow) {
        throw DomainError.validation('firstPaymentId cannot pay a trial or a deferred start', 'firstPaymentId');
      }
    }
    const mandate = await this.mandate(ctx, body, plan, instrument, creation, subscription, run);
    return this.payments.recordedOrReversed(ctx, mandate.chargedPaymentId, run.callKey('reverse'), () =>
      this.record(ctx, plan, subscription, creation, mandate, run, now),
    );
  }

  private startAtOf(raw: string | undefined, now: Date): Date | undefined {
    if (raw === undefined) return undefined;
    const startAt = parseRfc3339(raw);
    if (!startAt || startAt.getTime() <= now.getTime() || startAt.getTime() - now.getTime() > MAX_START_AHEAD_MS) {
      throw DomainError.validation('startAt must be an RFC 3339 time in the future (at most 2 years ahead)', 'startAt');
    }
    return startAt;
  }

  private async checkParent(ctx: CallerContext, body: CreateSubscriptionRequest): Promise<void> {
    if (body.parentSubscriptionId === undefined) {
      if (body.propagateLifecycle === true) {
        throw DomainError.validation('propagateLifecycle requires parentSubscriptionId', 'propagateLifecycle');
      }
      return;
    }
    const parent = await this.desk.subscriptions.find(ctx, body.parentSubscriptionId);
    if (!parent) throw DomainError.notFound('subscription', 'parentSubscriptionId');
    if (!acceptsChild(parent)) {
      throw DomainError.invalidState(`Cannot attach a child to a ${parent.status} subscription`);
    }
  }

  /** The payments call of the creation: CIT charge or verification, or record mode's token and cycle 1. */
  private async mandate(
    ctx: CallerContext,
    body: CreateSubscriptionRequest,
    plan: PlanEntity,
    instrument: Instrument,
    creation: CreationDecision,
    subscription: SubscriptionEntity,
    run: LeasedRun,
  ): Promise<Mandate> {
    const charge = {
      orderCode: `sub_${subscription.id}_1`,
      currency: plan.currency,
      exponent: plan.exponent,
      value: cycleAmount(plan, 1),
      shopperId: subscription.id,
      email: body.customerEmail,
      name: body.customerName,
      metadata: body.metadata,
    };
    if (instrument.mode === 'cit') {
      const payment = approvedOrDeclined(
        creation.chargeNow
          ? await this.payments.cit(ctx, instrument.card, { ...charge, key: run.callKey('cit') })
          : await this.payments.verify(ctx, instrument.card, {
              ...charge,
              orderCode: `sub_${subscription.id}_verify`,
              key: run.callKey('verify'),
            }),
      );
      if (!payment.token) throw new Error(`Payment ${payment.id} approved without a token`);
      return {
        token: payment.token.token,
        brand: payment.card?.cardData.brand ?? null,
        networkTransactionId: payment.card?.networkTransactionId ?? null,
        networkReferenceId: payment.card?.networkReferenceId ?? null,
        firstPayment: creation.chargeNow ? payment : undefined,
        chargedPaymentId: payment.id,
      };
    }
    const stored = await this.payments.token(ctx, instrument.token);
    const mandate: Mandate = {
      token: stored.token,
      brand: stored.brand,
      networkTransactionId: body.card.networkTransactionId ?? stored.networkTransactionId,
      networkReferenceId: body.card.networkReferenceId ?? stored.networkReferenceId,
    };
    if (body.firstPaymentId !== undefined) {
      const first = await this.firstPayment(ctx, body.firstPaymentId, stored.token, plan);
      return {
        ...mandate,
        firstPayment: first,
        firstCycle: { result: 'linked', paymentId: first.id, invoiceId: null },
      };
    }
    if (!creation.chargeNow)
      return { ...mandate, firstCycle: { result: 'deferred', paymentId: null, invoiceId: null } };
    const payment = approvedOrDeclined(
      await this.payments.mit(ctx, stored.token, { ...charge, key: run.callKey('mit') }, mandate.networkTransactionId),
    );
    return {
      ...mandate,
      firstPayment: payment,
      chargedPaymentId: payment.id,
      firstCycle: { result: 'charged', paymentId: payment.id, invoiceId: null },
    };
  }

  /** Record mode's firstPaymentId: an approved payment of this merchant on the same token, in the plan currency. */
  private async firstPayment(
    ctx: CallerContext,
    id: string,
    token: string,
    plan: PlanEntity,
  ): Promise<PaymentResponse> {
    const payment = await this.payments.payment(ctx, id).catch((e: unknown) => {
      throw e instanceof DomainError && e.code === 'NOT_FOUND' ? DomainError.notFound('payment', 'firstPaymentId') : e;
    });
    if (payment.token?.token !== token) {
      throw DomainError.validation('firstPaymentId is not a payment on card.tokenData.token', 'firstPaymentId');
    }
    if (payment.status !== 'captured' && payment.status !== 'authorized') {
      throw DomainError.invalidState(`firstPaymentId is a ${payment.status} payment`);
    }
    if (payment.amount.currency !== plan.currency) {
      throw new DomainError(
        'CURRENCY_MISMATCH',
        `firstPaymentId is in ${payment.amount.currency}, the plan in ${plan.currency}`,
        'firstPaymentId',
      );
    }
    return payment;
  }

  private async record(
    ctx: CallerContext,
    plan: PlanEntity,
    subscription: SubscriptionEntity,
    creation: CreationDecision,
    mandate: Mandate,
    run: LeasedRun,
    now: Date,
  ): Promise<CreatedSubscriptionView> {
    Object.assign(subscription, {
      cardToken: mandate.token,
      cardBrand: mandate.brand,
      networkTransactionId: mandate.networkTransactionId,
      networkReferenceId: mandate.networkReferenceId,
    });
    const subscriptionEvents = applyDecision(subscription, creation);
    let invoice: InvoiceEntity | null = null;
    let invoiceEvents: EventType[] = [];
    if (mandate.firstPayment) {
      subscription.cyclesCompleted = 1;
      ({ invoice, events: invoiceEvents } = paidInvoice({
        subscription,
        plan,
        periodStart: subscription.currentPeriodStart!,
        periodEnd: subscription.currentPeriodEnd!,
        amount: cycleAmount(plan, 1),
        payment: mandate.firstPayment,
        description: plan.name,
        now,
      }));
    }
    const view = toSubscriptionView(subscription, plan);
    const invoiceView = invoice ? toInvoiceView(invoice) : null;
    const response: CreatedSubscriptionView = { ...view, firstInvoice: invoiceView };
    if (mandate.firstCycle) response.firstCycle = { ...mandate.firstCycle, invoiceId: invoice?.id ?? null };
    await this.desk.transaction(async (manager) => {
      if (subscription.parentSubscriptionId) {
        // The parent may have been cancelled since it was checked: a child of a cancelled subscription is refused.
        const parent = await this.desk.subscriptions.findForUpdate(manager, ctx, subscription.parentSubscriptionId);
        if (!parent || !acceptsChild(parent)) {
          throw DomainError.invalidState('The parent subscription was cancelled meanwhile');
        }
      }
      await this.desk.subscriptions.insert(manager, subscription);
      await this.desk.events.emit(manager, ctx, subscriptionEvents.slice(0, 1), view, now);
      if (invoice && invoiceView) {
        await this.desk.invoices.insert(manager, invoice);
        await this.desk.events.emit(manager, ctx, invoiceEvents, invoiceView, now);
      }
      await this.desk.events.emit(manager, ctx, subscriptionEvents.slice(1), view, now);
      await run.answer(manager, response);
    });
    return response;
  }
}

function checkCountry(plan: PlanEntity, instrument: Instrument): void {
  if (!plan.availableCountries.length) return;
  const country = instrument.country?.toUpperCase();
  if (!country) {
    throw DomainError.validation(
      `Plan ${plan.id} is available only in ${plan.availableCountries.join(', ')}: send the card address country`,
      instrument.countryParam,
    );
  }
  if (!plan.availableCountries.includes(country)) {
    throw DomainError.validation(`Plan ${plan.id} is not available in ${country}`, instrument.countryParam);
  }
}

function newSubscription(
  id: string,
  ctx: CallerContext,
  body: CreateSubscriptionRequest,
  plan: PlanEntity,
  now: Date,
): SubscriptionEntity {
  // Moved out of the table's initial state, its dates set, by the policy's creation decision when it is recorded.
  return Object.assign(new SubscriptionEntity(), {
    id,
    merchantCode: ctx.merchantCode,
    environment: ctx.environment,
    merchantId: ctx.merchantId ?? plan.merchantId,
    planId: plan.id,
    status: SUBSCRIPTION_MACHINE.spec.initial,
    customerEmail: body.customerEmail,
    customerName: body.customerName ?? null,
    customerDocument: body.customerDocument ?? null,
    cardBrand: null,
    cardToken: '',
    networkTransactionId: null,
    networkReferenceId: null,
    billingAnchor: null,
    currentPeriodStart: null,
    currentPeriodEnd: null,
    nextBillingDate: null,
    trialStart: null,
    trialEnd: null,
    startAt: null,
    dunningAttemptCount: 0,
    cyclesCompleted: 0,
    activatedAt: null,
    cancelledAt: null,
    pausedAt: null,
    suspendedAt: null,
    completedAt: null,
    parentSubscriptionId: body.parentSubscriptionId ?? null,
    propagateLifecycle: body.propagateLifecycle ?? false,
    pendingPlanId: null,
    renewalParkedAt: null,
    renewalParkedReason: null,
    // With tracing on, the renewals of this subscription link to the trace of the request creating it.
    traceParent: traceParentOf(),
    metadata: body.metadata ?? {},
    createdAt: now,
    updatedAt: now,
  });
}
