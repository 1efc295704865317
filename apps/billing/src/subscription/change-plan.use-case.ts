import { Clock } from '@app/clock';
import { CallerContext, ChangePlanCommand, EventType, PaymentResponse, SubscriptionView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { LeasedRun, LeasedUseCase, UseCase } from '@app/idempotency';
import { paidInvoice } from '../invoice/invoice-factory';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { toInvoiceView } from '../invoice/invoice.view';
import { approvedOrDeclined, PaymentsClient } from '../payments/payments.client';
import { acceptsSubscribers, PlanEntity } from '../plan/plan.entity';
import { prorationDelta } from '../proration/proration';
import { lockUnchanged } from './subscription-lock';
import { applyDecision, decide, PlanChangeDecision, SubscriptionFact } from './subscription-policy';
import { SubscriptionEntity } from './subscription.entity';
import { BillingDesk } from './billing-desk';
import { toSubscriptionView } from './subscription.view';

type PlanChangeFact = Extract<SubscriptionFact, { kind: 'change_plan' }>;

/**
 * POST /v1/subscription/{id}/change-plan. `next_billing` records `pendingPlanId`. `now`
 * switches at once: on an active subscription the prorated delta of the rest of the current period is
 * computed; a positive one (upgrade) is charged as a merchant-initiated transaction with its own invoice
 * (a decline is 402 and changes nothing), a downgrade is not refunded. The current period keeps its end.
 */
@UseCase({ operation: 'subscription.change-plan', idempotency: 'leased' })
export class ChangePlanUseCase extends LeasedUseCase<ChangePlanCommand, SubscriptionView> {
  constructor(
    private readonly desk: BillingDesk,
    private readonly payments: PaymentsClient,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(ctx: CallerContext, body: ChangePlanCommand, run: LeasedRun): Promise<SubscriptionView> {
    const now = this.clock.now(ctx);
    const subscription = await this.desk.subscriptions.find(ctx, body.id);
    if (!subscription) throw DomainError.notFound('subscription', 'id');
    const fact: PlanChangeFact = {
      kind: 'change_plan',
      applyAt: body.applyAt === 'now' ? 'now' : 'next_billing',
      planId: body.planId,
    };
    // Refused here (409) when the subscription's state allows no plan change, before the plans are read.
    const decision = decide(subscription, fact, now);
    const target = await this.desk.plans.find(ctx, body.planId);
    if (!target) throw DomainError.notFound('plan', 'planId');
    const current = (await this.desk.plans.find(ctx, subscription.planId))!;
    if (target.currency !== current.currency) {
      throw new DomainError(
        'CURRENCY_MISMATCH',
        `Plan ${target.id} is in ${target.currency}, the subscription in ${current.currency}`,
        'planId',
      );
    }
    if (!acceptsSubscribers(target)) {
      throw DomainError.invalidState(`Plan ${target.id} is ${target.archivedAt ? 'archived' : 'not active'}`);
    }
    if (target.id === subscription.planId) throw DomainError.invalidState(`The subscription is on plan ${target.id}`);
    if (fact.applyAt !== 'now') return this.record(ctx, subscription, fact, target, null, run, now);

    const delta = decision.prorate ? this.delta(subscription, current, target, now) : 0;
    let payment: PaymentResponse | undefined;
    if (delta > 0) {
      // The delta moves with time: a retry of a declined upgrade a moment later is a new charge, with a key of its own.
      const key = run.callKey(`upgrade_${delta}`);
      payment = approvedOrDeclined(
        await this.payments.mit(
          ctx,
          subscription.cardToken,
          {
            key,
            orderCode: `sub_${subscription.id}_${key}`,
            currency: target.currency,
            exponent: target.exponent,
            value: delta,
            shopperId: subscription.id,
            email: subscription.customerEmail,
            metadata: subscription.metadata,
          },
          subscription.networkTransactionId,
        ),
        'planId',
      );
    }
    const upgrade = payment ? { delta, payment } : null;
    return this.payments.recordedOrReversed(ctx, payment?.id, run.callKey('reverse'), () =>
      this.record(ctx, subscription, fact, target, upgrade, run, now),
    );
  }

  /** The prorated difference for the rest of the current period; 0 when there is no billed period running. */
  private delta(s: SubscriptionEntity, current: PlanEntity, target: PlanEntity, now: Date): number {
    const start = s.currentPeriodStart;
    const end = s.currentPeriodEnd;
    if (!start || !end || now < start || now >= end) return 0;
    try {
      return prorationDelta({
        oldAmount: current.amount,
        newAmount: target.amount,
        periodStart: start,
        periodEnd: end,
        now,
        newInterval: target.interval,
        newIntervalCount: target.intervalCount,
      });
    } catch (e) {
      // A short new period priced very high can prorate beyond what one charge can carry.
      if (e instanceof RangeError) throw DomainError.validation('The prorated amount is out of range', 'planId');
      throw e;
    }
  }

  /** The decision made again under the row lock (nobody changed the subscription meanwhile), the upgrade invoiced. */
  private record(
    ctx: CallerContext,
    seen: SubscriptionEntity,
    fact: PlanChangeFact,
    target: PlanEntity,
    upgrade: { delta: number; payment: PaymentResponse } | null,
    run: LeasedRun,
    now: Date,
  ): Promise<SubscriptionView> {
    return this.desk.transaction(async (manager) => {
      const subscription = await lockUnchanged(manager, this.desk.subscriptions, ctx, seen);
      const decision: PlanChangeDecision = decide(subscription, fact, now);
      let invoice: { invoice: InvoiceEntity; events: EventType[] } | undefined;
      if (upgrade) {
        invoice = paidInvoice({
          subscription,
          plan: target,
          periodStart: now,
          periodEnd: subscription.currentPeriodEnd!,
          amount: upgrade.delta,
          payment: upgrade.payment,
          description: `Upgrade to ${target.name}`,
          now,
        });
      }
      const events = applyDecision(subscription, decision);
      await this.desk.subscriptions.save(manager, subscription);
      if (invoice) {
        await this.desk.invoices.insert(manager, invoice.invoice);
        await this.desk.events.emit(manager, ctx, invoice.events, toInvoiceView(invoice.invoice), now);
      }
      // A scheduled change keeps the current plan until the next renewal.
      const plan =
        subscription.planId === target.id ? target : await this.desk.plans.find(ctx, subscription.planId, manager);
      const view = toSubscriptionView(subscription, plan!);
      await this.desk.events.emit(manager, ctx, events, view, now);
      await run.answer(manager, view);
      return view;
    });
  }
}
