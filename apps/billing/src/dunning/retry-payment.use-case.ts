import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallerContext, SubscriptionIdCommand, SubscriptionView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { ForcedAttempt } from './forced-attempt';
import { LeasedRun, LeasedUseCase, UseCase } from '@app/idempotency';
import { inTransaction } from '@app/database';
import { approvedOrDeclined } from '../payments/payments.client';
import { PlanRepository } from '../plan/plan.repository';
import { SubscriptionRepository } from '../subscription/subscription.repository';
import { toSubscriptionView } from '../subscription/subscription.view';
import { checkRetry } from '../subscription/subscription-policy';

/**
 * POST /v1/subscription/{id}/retry-payment: charges the open invoice of a past_due
 * subscription now. It takes the renewal lease (409 while the scheduler is charging it), uses the attempt
 * key of the invoice like the scheduler, counts in the invoice's paymentAttemptCount only and leaves the
 * dunning schedule alone. Success: 200, invoice paid, subscription active; a decline: 402, still past_due.
 */
@UseCase({
  operation: 'subscription.retry-payment',
  idempotency: 'leased',
  request: ({ id }: SubscriptionIdCommand) => ({ id }),
})
export class RetryPaymentUseCase extends LeasedUseCase<SubscriptionIdCommand, SubscriptionView> {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly subscriptions: SubscriptionRepository,
    private readonly plans: PlanRepository,
    private readonly forced: ForcedAttempt,
  ) {
    super();
  }

  protected async execute(
    ctx: CallerContext,
    { id }: SubscriptionIdCommand,
    run: LeasedRun,
  ): Promise<SubscriptionView> {
    const found = await this.subscriptions.find(ctx, id);
    if (!found) throw DomainError.notFound('subscription', 'id');
    checkRetry(found.status);
    const { recorded, payment } = await this.forced.run(ctx, id);
    if (recorded.kind === 'stale') throw DomainError.invalidState('The invoice changed meanwhile; try again');
    if (payment) approvedOrDeclined(payment);
    const s = recorded.subscription;
    const view = toSubscriptionView(s, (await this.plans.find(s, s.planId))!);
    await inTransaction(this.db, (manager) => run.answer(manager, view));
    return view;
  }
}
