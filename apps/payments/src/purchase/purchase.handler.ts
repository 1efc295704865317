import { MessagePattern } from '@nestjs/microservices';
import { CallerContext, PaymentResponse, PaymentsSubjects, PurchaseRequest } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { PurchaseUseCase } from './purchase.use-case';

@CommandHandler()
export class PurchaseHandler {
  constructor(private readonly purchases: PurchaseUseCase) {}

  @MessagePattern(PaymentsSubjects.purchase)
  purchase(@Caller() ctx: CallerContext, @CommandBody() body: PurchaseRequest): Promise<PaymentResponse> {
    return this.purchases.run(ctx, body, 'purchase');
  }

  @MessagePattern(PaymentsSubjects.authorize)
  authorize(@Caller() ctx: CallerContext, @CommandBody() body: PurchaseRequest): Promise<PaymentResponse> {
    return this.purchases.run(ctx, body, 'authorization');
  }
}
