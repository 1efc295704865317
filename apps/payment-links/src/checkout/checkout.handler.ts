import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  CheckoutResult,
  CheckoutView,
  CheckoutViewCommand,
  PayLinkCommand,
  PaymentLinksSubjects,
  ResumeLinkCommand,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { CheckoutService } from './checkout.service';

/** Keyless commands: the link named in the body decides merchant and environment, never the context. */
@CommandHandler()
export class CheckoutHandler {
  constructor(private readonly checkout: CheckoutService) {}

  @MessagePattern(PaymentLinksSubjects.checkoutView)
  view(@CommandBody() body: CheckoutViewCommand): Promise<CheckoutView> {
    return this.checkout.view(body.id);
  }

  @MessagePattern(PaymentLinksSubjects.pay)
  pay(@Caller() ctx: CallerContext, @CommandBody() body: PayLinkCommand): Promise<CheckoutResult> {
    return this.checkout.pay(ctx.requestId, body);
  }

  @MessagePattern(PaymentLinksSubjects.resume)
  resume(@Caller() ctx: CallerContext, @CommandBody() body: ResumeLinkCommand): Promise<CheckoutResult> {
    return this.checkout.resume(ctx.requestId, body);
  }
}
