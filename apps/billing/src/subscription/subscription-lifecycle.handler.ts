import { MessagePattern } from '@nestjs/microservices';
import { BillingSubjects, CallerContext, SubscriptionIdCommand, SubscriptionView } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { CancelSubscriptionUseCase } from './cancel-subscription.use-case';
import { PauseSubscriptionUseCase } from './pause-subscription.use-case';
import { ResumeSubscriptionUseCase } from './resume-subscription.use-case';

/** A merchant's cancel, pause and resume of a subscription. */
@CommandHandler()
export class SubscriptionLifecycleHandler {
  constructor(
    private readonly cancelUseCase: CancelSubscriptionUseCase,
    private readonly pauseUseCase: PauseSubscriptionUseCase,
    private readonly resumeUseCase: ResumeSubscriptionUseCase,
  ) {}

  @MessagePattern(BillingSubjects.cancelSubscription)
  cancel(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<SubscriptionView> {
    return this.cancelUseCase.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.pauseSubscription)
  pause(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<SubscriptionView> {
    return this.pauseUseCase.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.resumeSubscription)
  resume(@Caller() ctx: CallerContext, @CommandBody() body: SubscriptionIdCommand): Promise<SubscriptionView> {
    return this.resumeUseCase.run(ctx, body);
  }
}
