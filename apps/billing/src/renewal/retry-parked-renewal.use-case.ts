import { Inject } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { CallerContext, SubscriptionIdCommand, SubscriptionView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { UseCase } from '@app/idempotency';
import { LOGGER } from '@app/observability';
import { BillingDesk } from '../subscription/billing-desk';
import { toSubscriptionView } from '../subscription/subscription.view';

/**
 * An operator's retry of a parked renewal (renewal-parking.service.ts): the park of a subscription of this scope
 * is lifted (404 unknown, 409 not parked) and the scheduler runs the renewal at its next round; answers the
 * subscription as it stands. Lifting it twice is 409: no key is kept.
 */
@UseCase({ operation: 'subscription.retry-parked-renewal', idempotency: 'none' })
export class RetryParkedRenewalUseCase {
  constructor(
    private readonly desk: BillingDesk,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(ctx: CallerContext, { id }: SubscriptionIdCommand): Promise<SubscriptionView> {
    const view = await this.desk.transaction(async (manager) => {
      const s = await this.desk.subscriptions.findForUpdate(manager, ctx, id);
      if (!s) throw DomainError.notFound('subscription', 'id');
      if (!s.renewalParkedAt) throw DomainError.invalidState('The subscription has no parked renewal');
      Object.assign(s, { renewalParkedAt: null, renewalParkedReason: null, updatedAt: this.clock.now(ctx) });
      await this.desk.subscriptions.updateMany(manager, [s]);
      return toSubscriptionView(s, (await this.desk.plans.find(s, s.planId, manager)) ?? undefined);
    });
    this.logger.info({ subscriptionId: id, merchantCode: ctx.merchantCode }, 'parked renewal retried');
    return view;
  }
}
