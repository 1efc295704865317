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
import { PlanEntity } from '../plan/plan.entity';
import { PlanRepository } from '../plan/plan.repository';
import { applyDecision, decide, followsParent, MerchantVerb } from './subscription-policy';
import { SubscriptionEntity } from './subscription.entity';
import { SubscriptionRepository } from './subscription.repository';
import { toSubscriptionView } from './subscription.view';

/**
 * Cancel, pause and resume: one transaction, the row locked, the change as the subscription policy decides
 * it; with `propagateLifecycle` the children follow their parent (those whose state allows
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

  run(ctx: CallerContext, verb: MerchantVerb, id: string): Promise<SubscriptionView> {
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
    verb: MerchantVerb,
    parentId: string,
    now: Date,
  ): Promise<void> {
    for (const child of await this.subscriptions.propagatingChildren(manager, parentId)) {
      if (!followsParent(child, verb)) continue;
      const plan = await this.plans.find(ctx, child.planId, manager);
      await this.apply(manager, ctx, verb, child, plan!, now);
      await this.cascade(manager, ctx, verb, child.id, now);
    }
  }

  private async apply(
    manager: EntityManager,
    ctx: CallerContext,
    verb: MerchantVerb,
    subscription: SubscriptionEntity,
    plan: PlanEntity,
    now: Date,
  ): Promise<SubscriptionView> {
    const decision = decide(subscription, verb === 'resume' ? { kind: verb, plan } : { kind: verb }, now);
    const events = applyDecision(subscription, decision);
    if (decision.voidOpenInvoices) {
      for (const invoice of await this.invoices.openOf(manager, subscription.id)) {
        const event = applyInvoiceTransition(invoice, 'void');
        invoice.updatedAt = now;
        await this.invoices.save(manager, invoice);
        await this.events.emit(manager, ctx, [event], toInvoiceView(invoice), now);
      }
    }
    await this.subscriptions.save(manager, subscription);
    const view = toSubscriptionView(subscription, plan);
    await this.events.emit(manager, ctx, events, view, now);
    return view;
  }
}
