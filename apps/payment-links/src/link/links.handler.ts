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
import { CancelLinkUseCase } from './cancel-link.use-case';
import { CreateLinkUseCase } from './create-link.use-case';
import { LinkQueries } from './link-queries.service';

@CommandHandler()
export class LinksHandler {
  constructor(
    private readonly createUseCase: CreateLinkUseCase,
    private readonly cancelUseCase: CancelLinkUseCase,
    private readonly links: LinkQueries,
  ) {}

  @MessagePattern(PaymentLinksSubjects.create)
  create(@Caller() ctx: CallerContext, @CommandBody() body: CreatePaymentLinkRequest): Promise<PaymentLinkResponse> {
    return this.createUseCase.run(ctx, body);
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
    return this.cancelUseCase.run(ctx, body);
  }
}
