import { MessagePattern } from '@nestjs/microservices';
import { BillingSubjects, CallerContext, SubscriptionIdCommand, SubscriptionView } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { RenewalParking } from '../renewal/renewal-parking.service';
import { RetryPaymentUseCase } from './retry-payment.use-case';

@CommandHandler()
export class DunningHandler {
  constructor(
    private readonly retryPayment: RetryPaymentUseCase,
    private readonly parking: RenewalParking,
  ) {}

  @MessagePattern(BillingSubjects.retryPayment)
  retry(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<SubscriptionView> {
    return this.retryPayment.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.retryParkedRenewal)
  retryParked(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<SubscriptionView> {
    return this.parking.retry(ctx, body.id);
  }
}
