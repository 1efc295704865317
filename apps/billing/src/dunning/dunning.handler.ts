import { MessagePattern } from '@nestjs/microservices';
import { BillingSubjects, CallerContext, SubscriptionIdCommand, SubscriptionView } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { RetryPaymentUseCase } from './retry-payment.use-case';

@CommandHandler()
export class DunningHandler {
  constructor(private readonly retryPayment: RetryPaymentUseCase) {}

  @MessagePattern(BillingSubjects.retryPayment)
  retry(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<SubscriptionView> {
    return this.retryPayment.run(ctx, body.id);
  }
}
