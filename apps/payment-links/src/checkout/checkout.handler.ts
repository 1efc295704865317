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
import { CheckoutLinks } from './checkout-links';
import { PayLinkUseCase } from './pay-link.use-case';
import { ResumeLinkUseCase } from './resume-link.use-case';

/** Keyless commands: the link named in the body decides merchant and environment, never the context. */
@CommandHandler()
export class CheckoutHandler {
  constructor(
    private readonly links: CheckoutLinks,
    private readonly payUseCase: PayLinkUseCase,
    private readonly resumeUseCase: ResumeLinkUseCase,
  ) {}

  @MessagePattern(PaymentLinksSubjects.checkoutView)
  view(@CommandBody() body: CheckoutViewCommand): Promise<CheckoutView> {
    return this.links.view(body.id);
  }

  @MessagePattern(PaymentLinksSubjects.pay)
  pay(@Caller() ctx: CallerContext, @CommandBody() body: PayLinkCommand): Promise<CheckoutResult> {
    return this.payUseCase.run(ctx, body);
  }

  @MessagePattern(PaymentLinksSubjects.resume)
  resume(@Caller() ctx: CallerContext, @CommandBody() body: ResumeLinkCommand): Promise<CheckoutResult> {
    return this.resumeUseCase.run(ctx, body);
  }
}
