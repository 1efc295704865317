import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  CreatePaymentLinkRequest,
  ListPaymentLinksCommand,
  PaymentLinkIdCommand,
  PaymentLinkResponse,
  PaymentLinksSubjects,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { LinksService } from './links.service';

@CommandHandler()
export class LinksHandler {
  constructor(private readonly links: LinksService) {}

  @MessagePattern(PaymentLinksSubjects.create)
  create(@Caller() ctx: CallerContext, @CommandBody() body: CreatePaymentLinkRequest): Promise<PaymentLinkResponse> {
    return this.links.create(ctx, body);
  }

  @MessagePattern(PaymentLinksSubjects.get)
  get(@Caller() ctx: CallerContext, @CommandBody() body: PaymentLinkIdCommand): Promise<PaymentLinkResponse> {
    return this.links.get(ctx, body.id);
  }

  @MessagePattern(PaymentLinksSubjects.list)
  list(@Caller() ctx: CallerContext, @CommandBody() body: ListPaymentLinksCommand): Promise<PaymentLinkResponse[]> {
    return this.links.list(ctx, body);
  }

  @MessagePattern(PaymentLinksSubjects.cancel)
  cancel(@Caller() ctx: CallerContext, @CommandBody() body: PaymentLinkIdCommand): Promise<PaymentLinkResponse> {
    return this.links.cancel(ctx, body.id);
  }
}
