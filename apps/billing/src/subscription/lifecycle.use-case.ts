import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, SubscriptionView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { BillingEvents } from '../billing-events';
import { IdempotencyService } from '@app/idempotency';
import { inTransaction } from '@app/database';
import { applyInvoiceTransition } from '../invoice/invoice-state';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { toInvoiceView } from '../invoice/invoice.view';
import { periodBoundary } from '../period/period';
import { PlanEntity } from '../plan/plan.entity';
import { PlanRepository } from '../plan/plan.repository';
import { applySubscriptionTransition, canTransition } from './subscription-state';
import { SubscriptionEntity } from './subscription.entity';
import { SubscriptionRepository } from './subscription.repository';
import { toSubscriptionView } from './subscription.view';

type LifecycleVerb = 'cancel' | 'pause' | 'resume';

/**
 * Cancel, pause and resume: one transaction, the row locked, the change through the
 * transition table; with `propagateLifecycle` the children follow their parent (those whose state allows
 * it). Cancel voids open invoices. The Idempotency-Key's answer is recorded in that same transaction, so a
 * replay (cancel twice with one key) answers the first 200.
 */
@Injectable()
export class LifecycleUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly subscriptions: SubscriptionRepository,
    private readonly plans: PlanRepository,
    private readonly invoices: InvoiceRepository,
    private readonly idempotency: IdempotencyService,
    private readonly events: BillingEvents,
    private readonly clock: Clock,
  ) {}

  run(ctx: CallerContext, verb: LifecycleVerb, id: string): Promise<SubscriptionView> {
    return this.idempotency.leased(ctx, `subscription.${verb}`, { id }, (run) =>
      inTransaction(this.db, async (manager) => {
        const subscription = await this.subscriptions.findForUpdate(manager, ctx, id);
        if (!subscription) throw DomainError.notFound('subscription', 'id');
        const now = this.clock.now(ctx);
        const plan = await this.plans.find(ctx, subscription.planId, manager);
        const view = await this.apply(manager, ctx, verb, subscription, plan!, now);
        await this.cascade(manager, ctx, verb, subscription.id, now);
        await run.answer(manager, view);
        return view;
      }),
    );
  }

  /** Children that follow their parent, and theirs; a child whose state does not allow the change keeps it. */
  private async cascade(
    manager: EntityManager,
    ctx: CallerContext,
    verb: LifecycleVerb,
    parentId: string,
    now: Date,
  ): Promise<void> {
    for (const child of await this.subscriptions.propagatingChildren(manager, parentId)) {
      if (!canTransition(child.status, verb)) continue;
      const plan = await this.plans.find(ctx, child.planId, manager);
      await this.apply(manager, ctx, verb, child, plan!, now);
      await this.cascade(manager, ctx, verb, child.id, now);
    }
  }

  private async apply(
    manager: EntityManager,
    ctx: CallerContext,
    verb: LifecycleVerb,
    subscription: SubscriptionEntity,
    plan: PlanEntity,
    now: Date,
  ): Promise<SubscriptionView> {
    const events = applySubscriptionTransition(subscription, verb);
    if (verb === 'cancel') {
      subscription.cancelledAt = now;
      subscription.nextBillingDate = null;
      for (const invoice of await this.invoices.openOf(manager, subscription.id)) {
        const event = applyInvoiceTransition(invoice, 'void');
        invoice.updatedAt = now;
        await this.invoices.save(manager, invoice);
        await this.events.emit(manager, ctx, [event], toInvoiceView(invoice), now);
      }
    } else if (verb === 'pause') {
      subscription.pausedAt = now;
      subscription.nextBillingDate = null;
    } else {
      // Paused time is not charged: the next charge is one interval after the resume.
      const next = periodBoundary(now, plan.interval, plan.intervalCount, 1);
      subscription.pausedAt = null;
      subscription.billingAnchor = now;
      subscription.currentPeriodStart = now;
      subscription.currentPeriodEnd = next;
      subscription.nextBillingDate = next;
      subscription.activatedAt ??= now;
    }
    subscription.updatedAt = now;
    await this.subscriptions.save(manager, subscription);
    const view = toSubscriptionView(subscription, plan);
    await this.events.emit(manager, ctx, events, view, now);
    return view;
  }
}
