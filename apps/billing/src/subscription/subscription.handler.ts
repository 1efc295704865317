import { MessagePattern } from '@nestjs/microservices';
import {
  BillingSubjects,
  CallerContext,
  ChangePlanCommand,
  PaymentMethodCommand,
  CreatedSubscriptionView,
  CreateSubscriptionRequest,
  InvoiceView,
  ListInvoicesCommand,
  ListSubscriptionsQuery,
  SubscriptionIdCommand,
  SubscriptionView,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { ChangePlanUseCase } from './change-plan.use-case';
import { CreateSubscriptionUseCase } from './create-subscription.use-case';
import { PaymentMethodUseCase } from './payment-method.use-case';
import { SubscriptionQueries } from './subscription-queries.service';

/** Subscriptions: enrolment, plan and card changes, and reads (cancel, pause, resume: SubscriptionLifecycleHandler). */
@CommandHandler()
export class SubscriptionHandler {
  constructor(
    private readonly createUseCase: CreateSubscriptionUseCase,
    private readonly queries: SubscriptionQueries,
    private readonly changePlanUseCase: ChangePlanUseCase,
    private readonly paymentMethodUseCase: PaymentMethodUseCase,
  ) {}

  /** Also sent by the payment-links service to enrol a subscription link's payer (CIT mode). */
  @MessagePattern(BillingSubjects.createSubscription)
  subscribe(
    @Caller() ctx: CallerContext,
    @CommandBody() body: CreateSubscriptionRequest,
  ): Promise<CreatedSubscriptionView> {
    return this.createUseCase.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.getSubscription)
  get(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<SubscriptionView> {
    return this.queries.get(ctx, body.id);
  }

  @MessagePattern(BillingSubjects.listSubscriptions)
  list(@Caller() ctx: CallerContext, @CommandBody() query: ListSubscriptionsQuery): Promise<SubscriptionView[]> {
    return this.queries.list(ctx, query);
  }

  @MessagePattern(BillingSubjects.changePlan)
  changePlan(@Caller() ctx: CallerContext, @CommandBody() body: ChangePlanCommand): Promise<SubscriptionView> {
    return this.changePlanUseCase.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.updatePaymentMethod)
  paymentMethod(@Caller() ctx: CallerContext, @CommandBody() body: PaymentMethodCommand): Promise<SubscriptionView> {
    return this.paymentMethodUseCase.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.listInvoices)
  invoices(@Caller() ctx: CallerContext, @CommandBody() body: ListInvoicesCommand): Promise<InvoiceView[]> {
    return this.queries.invoicesOf(ctx, body.id, body);
  }

  @MessagePattern(BillingSubjects.getInvoice)
  invoice(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<InvoiceView> {
    return this.queries.invoice(ctx, body.id);
  }
}
