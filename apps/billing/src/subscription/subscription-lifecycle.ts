import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, SubscriptionView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { LeasedRun } from '@app/idempotency';
import { applyInvoiceTransition } from '../invoice/invoice-state';
import { toInvoiceView } from '../invoice/invoice.view';
import { PlanEntity } from '../plan/plan.entity';
import { applyDecision, decide, followsParent, MerchantVerb } from './subscription-policy';
import { SubscriptionEntity } from './subscription.entity';
import { BillingDesk } from './billing-desk';
import { toSubscriptionView } from './subscription.view';

/**
 * Cancel, pause and resume (each its own use case): one transaction, the row locked, the change as the
 * subscription policy decides it; with `propagateLifecycle` the children follow their parent (those whose state
 * allows it). Cancel voids open invoices. The Idempotency-Key's answer is recorded in that same transaction, so
 * a replay (cancel twice with one key) answers the first 200.
 */
@Injectable()
export class SubscriptionLifecycle {
  constructor(
    private readonly desk: BillingDesk,
    private readonly clock: Clock,
  ) {}

  change(ctx: CallerContext, verb: MerchantVerb, id: string, lease: LeasedRun): Promise<SubscriptionView> {
    return this.desk.transaction(async (manager) => {
      const subscription = await this.desk.subscriptions.findForUpdate(manager, ctx, id);
      if (!subscription) throw DomainError.notFound('subscription', 'id');
      const now = this.clock.now(ctx);
      const plan = await this.desk.plans.find(ctx, subscription.planId, manager);
      const view = await this.apply(manager, ctx, verb, subscription, plan!, now);
      await this.cascade(manager, ctx, verb, subscription.id, now);
      await lease.answer(manager, view);
      return view;
    });
  }

  /** Children that follow their parent, and theirs; a child whose state does not allow the change keeps it. */
  private async cascade(
    manager: EntityManager,
    ctx: CallerContext,
    verb: MerchantVerb,
    parentId: string,
    now: Date,
  ): Promise<void> {
    for (const child of await this.desk.subscriptions.propagatingChildren(manager, parentId)) {
      if (!followsParent(child, verb)) continue;
      const plan = await this.desk.plans.find(ctx, child.planId, manager);
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
      for (const invoice of await this.desk.invoices.openOf(manager, subscription.id)) {
        const event = applyInvoiceTransition(invoice, 'void');
        invoice.updatedAt = now;
        await this.desk.invoices.save(manager, invoice);
        await this.desk.events.emit(manager, ctx, [event], toInvoiceView(invoice), now);
      }
    }
    await this.desk.subscriptions.save(manager, subscription);
    const view = toSubscriptionView(subscription, plan);
    await this.desk.events.emit(manager, ctx, events, view, now);
    return view;
  }
}
