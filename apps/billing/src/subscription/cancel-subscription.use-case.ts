import { CallerContext, SubscriptionIdCommand, SubscriptionView } from '@app/contracts';
import { LeasedRun, LeasedUseCase, UseCase } from '@app/idempotency';
import { SubscriptionLifecycle } from './subscription-lifecycle';

/** POST /v1/subscription/{id}/cancel: the subscription (and the children that follow it) cancelled, its open invoices voided. */
@UseCase({
  operation: 'subscription.cancel',
  idempotency: 'leased',
  request: ({ id }: SubscriptionIdCommand) => ({ id }),
})
export class CancelSubscriptionUseCase extends LeasedUseCase<SubscriptionIdCommand, SubscriptionView> {
  constructor(private readonly lifecycle: SubscriptionLifecycle) {
    super();
  }

  protected execute(ctx: CallerContext, { id }: SubscriptionIdCommand, lease: LeasedRun): Promise<SubscriptionView> {
    return this.lifecycle.change(ctx, 'cancel', id, lease);
  }
}
