import { MessagePattern } from '@nestjs/microservices';
import { BillingSubjects, CallerContext, SubscriptionIdCommand, SubscriptionView } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { RetryParkedRenewalUseCase } from '../renewal/retry-parked-renewal.use-case';
import { RetryPaymentUseCase } from './retry-payment.use-case';

@CommandHandler()
export class DunningHandler {
  constructor(
    private readonly retryPayment: RetryPaymentUseCase,
    private readonly retryParkedRenewal: RetryParkedRenewalUseCase,
  ) {}

  @MessagePattern(BillingSubjects.retryPayment)
  retry(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<SubscriptionView> {
    return this.retryPayment.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.retryParkedRenewal)
  retryParked(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<SubscriptionView> {
    return this.retryParkedRenewal.run(ctx, body);
  }
}
