import { CallerContext, ChallengeReturnCommand, PaymentResponse } from '@app/contracts';
import { UseCase } from '@app/idempotency';
import { PaymentRepository } from '../payment/payment.repository';
import { toPaymentResponse } from '../payment/payment.view';
import { PaymentSessionRepository } from './payment-session.repository';
import { ResumeUseCase } from './resume.use-case';
import { sessionNotFound } from './threeds.service';

/**
 * The shopper is back from the provider's 3DS page with what the provider added (`details`): the payment is
 * resumed with them. A second return (a reload) answers the payment as it stands. Keyless, as a resume.
 */
@UseCase({ operation: 'payment.provider-return', idempotency: 'none' })
export class ProviderReturnUseCase {
  constructor(
    private readonly sessions: PaymentSessionRepository,
    private readonly payments: PaymentRepository,
    private readonly resume: ResumeUseCase,
  ) {}

  async run(ctx: CallerContext, { sessionId, details }: ChallengeReturnCommand): Promise<PaymentResponse> {
    const found = await this.sessions.find(sessionId, 'threeds');
    if (!found?.providerAction) throw sessionNotFound();
    if (found.status === 'consumed') return toPaymentResponse(await this.payments.get(found, found.paymentId));
    return this.resume.run(ctx, { sessionId, via: 'provider-return', details });
  }
}
