import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, ChangePlanCommand, EventType, PaymentResponse, SubscriptionView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { BillingEvents } from '../billing-events';
import { IdempotencyService, LeasedRun } from '@app/idempotency';
import { inTransaction } from '@app/database';
import { paidInvoice } from '../invoice/invoice-factory';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { toInvoiceView } from '../invoice/invoice.view';
import { approvedOrDeclined, PaymentsClient } from '../payments/payments.client';
import { acceptsSubscribers, PlanEntity } from '../plan/plan.entity';
import { PlanRepository } from '../plan/plan.repository';
import { prorationDelta } from '../proration/proration';
import { lockUnchanged } from './subscription-lock';
import { applySubscriptionTransition, subscriptionTransition } from './subscription-state';
import { SubscriptionEntity } from './subscription.entity';
import { SubscriptionRepository } from './subscription.repository';
import { toSubscriptionView } from './subscription.view';

/**
 * POST /v1/subscription/{id}/change-plan. `next_billing` records `pendingPlanId`. `now`
 * switches at once: on an active subscription the prorated delta of the rest of the current period is
 * computed; a positive one (upgrade) is charged as a merchant-initiated transaction with its own invoice
 * (a decline is 402 and changes nothing), a downgrade is not refunded. The current period keeps its end.
 */
@Injectable()
export class ChangePlanUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly plans: PlanRepository,
    private readonly subscriptions: SubscriptionRepository,
    private readonly invoices: InvoiceRepository,
    private readonly payments: PaymentsClient,
    private readonly idempotency: IdempotencyService,
    private readonly events: BillingEvents,
    private readonly clock: Clock,
  ) {}

  run(ctx: CallerContext, body: ChangePlanCommand): Promise<SubscriptionView> {
    return this.idempotency.leased(ctx, 'subscription.change-plan', body, (run) => this.change(ctx, body, run));
  }

  private async change(ctx: CallerContext, body: ChangePlanCommand, run: LeasedRun): Promise<SubscriptionView> {
    const now = this.clock.now(ctx);
    const applyNow = body.applyAt === 'now';
    const subscription = await this.subscriptions.find(ctx, body.id);
    if (!subscription) throw DomainError.notFound('subscription', 'id');
    subscriptionTransition(subscription.status, applyNow ? 'change_plan' : 'schedule_plan_change');
    const target = await this.plans.find(ctx, body.planId);
    if (!target) throw DomainError.notFound('plan', 'planId');
    const current = (await this.plans.find(ctx, subscription.planId))!;
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
    if (!applyNow) return this.schedule(ctx, subscription, target, run, now);

    const delta = this.delta(subscription, current, target, now);
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
    try {
      return await this.switchNow(ctx, subscription, target, delta, payment, run, now);
    } catch (e) {
      if (payment) await this.payments.reverse(ctx, payment.id, run.callKey('reverse'));
      throw e;
    }
  }

  /** The prorated difference for the rest of the current period; 0 when there is no billed period running. */
  private delta(s: SubscriptionEntity, current: PlanEntity, target: PlanEntity, now: Date): number {
    const start = s.currentPeriodStart;
    const end = s.currentPeriodEnd;
    if (s.status !== 'active' || !start || !end || now < start || now >= end) return 0;
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

  private async switchNow(
    ctx: CallerContext,
    seen: SubscriptionEntity,
    target: PlanEntity,
    delta: number,
    payment: PaymentResponse | undefined,
    run: LeasedRun,
    now: Date,
  ): Promise<SubscriptionView> {
    return inTransaction(this.db, async (manager) => {
      const subscription = await lockUnchanged(manager, this.subscriptions, ctx, seen);
      const events = applySubscriptionTransition(subscription, 'change_plan');
      let invoice: { invoice: InvoiceEntity; events: EventType[] } | undefined;
      if (payment) {
        invoice = paidInvoice({
          subscription,
          plan: target,
          periodStart: now,
          periodEnd: subscription.currentPeriodEnd!,
          amount: delta,
          payment,
          description: `Upgrade to ${target.name}`,
          now,
        });
      }
      // The current period keeps its end; the following ones are periods of the new plan from there.
      if (subscription.status === 'active' && subscription.currentPeriodEnd) {
        subscription.billingAnchor = subscription.currentPeriodEnd;
      }
      subscription.planId = target.id;
      subscription.pendingPlanId = null;
      subscription.updatedAt = now;
      await this.subscriptions.save(manager, subscription);
      if (invoice) {
        await this.invoices.insert(manager, invoice.invoice);
        await this.events.emit(manager, ctx, invoice.events, toInvoiceView(invoice.invoice), now);
      }
      const view = toSubscriptionView(subscription, target);
      await this.events.emit(manager, ctx, events, view, now);
      await run.answer(manager, view);
      return view;
    });
  }

  private schedule(
    ctx: CallerContext,
    seen: SubscriptionEntity,
    target: PlanEntity,
    run: LeasedRun,
    now: Date,
  ): Promise<SubscriptionView> {
    return inTransaction(this.db, async (manager) => {
      const subscription = await lockUnchanged(manager, this.subscriptions, ctx, seen);
      const events = applySubscriptionTransition(subscription, 'schedule_plan_change');
      subscription.pendingPlanId = target.id;
      subscription.updatedAt = now;
      await this.subscriptions.save(manager, subscription);
      const plan = await this.plans.find(ctx, subscription.planId, manager);
      const view = toSubscriptionView(subscription, plan!);
      await this.events.emit(manager, ctx, events, view, now);
      await run.answer(manager, view);
      return view;
    });
  }
}
