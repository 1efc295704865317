import { Injectable } from '@nestjs/common';
import {
  CallerContext,
  InvoiceView,
  ListInvoicesQuery,
  ListSubscriptionsQuery,
  SubscriptionView,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { toInvoiceView } from '../invoice/invoice.view';
import { PlanRepository } from '../plan/plan.repository';
import { isUuid, pageLimit } from '../scope';
import { SubscriptionEntity } from './subscription.entity';
import { SubscriptionRepository } from './subscription.repository';
import { toSubscriptionView } from './subscription.view';

const startingAfterOf = (value?: string): string | undefined => {
  if (value !== undefined && !isUuid(value))
    throw DomainError.validation('startingAfter must be an id', 'startingAfter');
  return value;
};

/** Reads: one subscription (plan embedded), the list, a subscription's invoices, one invoice with attempts. */
@Injectable()
export class SubscriptionQueries {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly plans: PlanRepository,
    private readonly invoices: InvoiceRepository,
  ) {}

  async get(ctx: CallerContext, id: string): Promise<SubscriptionView> {
    return this.view(ctx, await this.require(ctx, id));
  }

  /** The single-subscription answer: the plan embedded. */
  async view(ctx: CallerContext, subscription: SubscriptionEntity): Promise<SubscriptionView> {
    const plan = await this.plans.find(ctx, subscription.planId);
    return toSubscriptionView(subscription, plan ?? undefined);
  }

  async list(ctx: CallerContext, q: ListSubscriptionsQuery): Promise<SubscriptionView[]> {
    const rows = await this.subscriptions.list(ctx, {
      planId: q.planId,
      status: q.status,
      customerEmail: q.customerEmail,
      limit: pageLimit(q.limit),
      startingAfter: startingAfterOf(q.startingAfter),
    });
    return rows.map((s) => toSubscriptionView(s));
  }

  async invoicesOf(ctx: CallerContext, id: string, q: ListInvoicesQuery): Promise<InvoiceView[]> {
    const subscription = await this.require(ctx, id);
    const rows = await this.invoices.listOf(subscription.id, {
      limit: pageLimit(q.limit),
      startingAfter: startingAfterOf(q.startingAfter),
    });
    return rows.map((i) => toInvoiceView(i));
  }

  async invoice(ctx: CallerContext, id: string): Promise<InvoiceView> {
    const invoice = await this.invoices.find(ctx, id);
    if (!invoice) throw DomainError.notFound('invoice', 'id');
    return toInvoiceView(invoice, true);
  }

  async require(ctx: CallerContext, id: string): Promise<SubscriptionEntity> {
    const subscription = await this.subscriptions.find(ctx, id);
    if (!subscription) throw DomainError.notFound('subscription', 'id');
    return subscription;
  }
}
