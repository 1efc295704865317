import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  ChallengeOutcomeResponse,
  ChallengeReturnCommand,
  CompleteChallengeCommand,
  PaymentResponse,
  PaymentsExtrasSubjects,
  ResumeRequest,
  SessionView,
  SessionViewRequest,
  SettleCommand,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { SettleUseCase } from './settle.use-case';
import { ProviderReturnUseCase } from './provider-return.use-case';
import { ResumeUseCase } from './resume.use-case';
import { ThreeDsService } from './threeds.service';

/**
 * Session commands. The keyless ones (resume, hosted pages) carry no merchant: the session decides the
 * scope. The sandbox ones are scoped by the caller's key.
 */
@CommandHandler()
export class PaymentSessionsHandler {
  constructor(
    private readonly threeDs: ThreeDsService,
    private readonly resumeUseCase: ResumeUseCase,
    private readonly providerReturnUseCase: ProviderReturnUseCase,
    private readonly settleUseCase: SettleUseCase,
  ) {}

  /** The shopper back from a provider's 3DS page (keyless: the session id and the provider's data). */
  @MessagePattern(PaymentsExtrasSubjects.challengeReturn)
  providerReturn(@Caller() ctx: CallerContext, @CommandBody() body: ChallengeReturnCommand): Promise<PaymentResponse> {
    return this.providerReturnUseCase.run(ctx, body);
  }

  @MessagePattern(PaymentsExtrasSubjects.resume)
  resume(@Caller() ctx: CallerContext, @CommandBody() body: ResumeRequest): Promise<PaymentResponse> {
    return this.resumeUseCase.run(ctx, { sessionId: body.sessionId, via: 'keyless' });
  }

  /** Only payment-links may send it (NATS permissions): its checkout's resume of a link payment. */
  @MessagePattern(PaymentsExtrasSubjects.resumeLinkPayment)
  resumeLinkPayment(@Caller() ctx: CallerContext, @CommandBody() body: ResumeRequest): Promise<PaymentResponse> {
    return this.resumeUseCase.run(ctx, { sessionId: body.sessionId, via: 'link-checkout' });
  }

  @MessagePattern(PaymentsExtrasSubjects.sessionView)
  view(@CommandBody() body: SessionViewRequest): Promise<SessionView> {
    return this.threeDs.view(body.sessionId, body.kind);
  }

  @MessagePattern(PaymentsExtrasSubjects.completeChallenge)
  complete(@CommandBody() body: CompleteChallengeCommand): Promise<ChallengeOutcomeResponse> {
    return this.threeDs.complete(null, body.sessionId, body.outcome);
  }

  @MessagePattern(PaymentsExtrasSubjects.sandboxChallenge)
  sandboxChallenge(
    @Caller() ctx: CallerContext,
    @CommandBody() body: CompleteChallengeCommand,
  ): Promise<ChallengeOutcomeResponse> {
    return this.threeDs.complete(ctx, body.sessionId, body.outcome);
  }

  @MessagePattern(PaymentsExtrasSubjects.sandboxSettle)
  settle(@Caller() ctx: CallerContext, @CommandBody() body: SettleCommand): Promise<PaymentResponse> {
    return this.settleUseCase.run(ctx, body);
  }
}
