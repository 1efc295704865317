import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, SubscriptionView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { BILLING_CONFIG, BillingConfig } from '../config';
import { BillingIdempotencyService, IdempotentRun } from '../idempotency/billing-idempotency.service';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { approvedOrDeclined } from '../payments/payments.client';
import { PlanRepository } from '../plan/plan.repository';
import { attemptOf } from '../renewal/renewal-opening.service';
import { RenewalRunner } from '../renewal/renewal-runner.service';
import { RenewalRepository } from '../renewal/renewal.repository';
import { SubscriptionRepository } from '../subscription/subscription.repository';
import { toSubscriptionView } from '../subscription/subscription.view';
import { canRetry, checkRetry } from './dunning-policy';

/**
 * POST /v1/subscription/{id}/retry-payment (DECISIONS §5): charges the open invoice of a past_due
 * subscription now. It takes the renewal lease (409 while the scheduler is charging it), uses the attempt
 * key of the invoice like the scheduler, counts in the invoice's paymentAttemptCount only and leaves the
 * dunning schedule alone. Success: 200, invoice paid, subscription active; a decline: 402, still past_due.
 */
@Injectable()
export class RetryPaymentUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly subscriptions: SubscriptionRepository,
    private readonly plans: PlanRepository,
    private readonly renewals: RenewalRepository,
    private readonly invoices: InvoiceRepository,
    private readonly runner: RenewalRunner,
    private readonly idempotency: BillingIdempotencyService,
    private readonly clock: Clock,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
  ) {}

  run(ctx: CallerContext, id: string): Promise<SubscriptionView> {
    return this.idempotency.run(ctx, 'subscription.retry-payment', { id }, (run) => this.retry(ctx, id, run));
  }

  private async retry(ctx: CallerContext, id: string, run: IdempotentRun): Promise<SubscriptionView> {
    const found = await this.subscriptions.find(ctx, id);
    if (!found) throw DomainError.notFound('subscription', 'id');
    checkRetry(found.status);
    const realNow = this.clock.now();
    if (!(await this.renewals.leaseOne(id, realNow, new Date(realNow.getTime() + this.config.RENEWAL_LEASE_MS)))) {
      throw DomainError.invalidState('A payment attempt of this subscription is in progress; try again');
    }
    const now = this.clock.now(ctx);
    const opened = await this.db.transaction(async (manager) => {
      const s = await this.renewals.lockSubscription(manager, id);
      const [invoice] = s ? await this.invoices.openOf(manager, id) : [];
      if (!s || !canRetry(s.status) || !invoice) {
        await this.renewals.release(id, manager);
        throw DomainError.invalidState('The subscription has no open invoice to pay');
      }
      return attemptOf(s, invoice, now);
    });
    const { recorded, payment } = await this.runner.attempt(opened, 'forced').catch(async (e: unknown) => {
      await this.renewals.release(id);
      throw e;
    });
    if (recorded.kind === 'stale') throw DomainError.invalidState('The invoice changed meanwhile; try again');
    if (payment) approvedOrDeclined(payment);
    const s = recorded.subscription;
    const view = toSubscriptionView(s, (await this.plans.find(s, s.planId))!);
    await this.db.transaction((manager) => run.answer(manager, view));
    return view;
  }
}
