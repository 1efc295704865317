import { SandboxClockCopy } from '@app/clock';
import { CallerContext, LINK_PAYMENT_METADATA, PaymentResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { UseCase } from '@app/idempotency';
import { PaymentRepository } from '../payment/payment.repository';
import { toPaymentResponse } from '../payment/payment.view';
import { PaymentSessionRepository } from './payment-session.repository';
import { ResumeAtAcquirer } from './resume-at-acquirer';
import { assertSessionSimulated } from './simulated-sessions';
import { sessionNotFound } from './threeds.service';

/**
 * `keyless`: POST /v1/payment/resume; `link-checkout`: a payment link's checkout, through payment-links;
 * `provider-return`: the shopper's browser back from a provider's 3DS page (the gateway's return URL).
 */
export type ResumeRoute = 'keyless' | 'link-checkout' | 'provider-return';

export interface ResumeCommand {
  sessionId: string;
  via: ResumeRoute;
  /** What a provider added to the shopper's return from its 3DS page. */
  details?: Record<string, string>;
}

/**
 * POST /v1/payment/resume (docs/api.md, 3DS). The session id is the credential: the command is keyless, and the
 * session, not the caller, decides whose payment it is. A 3DS session: expiry is checked first (400
 * SESSION_EXPIRED), then single use (409 INVALID_STATE), then the challenge (409 CHALLENGE_NOT_COMPLETED); the
 * acquirer gives the final answer. An APM session: the Payment as it stands.
 */
@UseCase({ operation: 'payment.resume', idempotency: 'none' })
export class ResumeUseCase {
  constructor(
    private readonly sessions: PaymentSessionRepository,
    private readonly payments: PaymentRepository,
    private readonly clocks: SandboxClockCopy,
    private readonly acquirer: ResumeAtAcquirer,
  ) {}

  async run(_ctx: CallerContext, { sessionId, via, details }: ResumeCommand): Promise<PaymentResponse> {
    const found = await this.sessions.find(sessionId);
    if (!found) throw sessionNotFound();
    assertSessionSimulated(found);
    const payment = await this.payments.get(found, found.paymentId);
    // A link's payment is finished by its checkout, which counts a declined or abandoned challenge against
    // the card-testing limit and answers the anonymous payer without the merchant's fields. Refused before the
    // session is touched, so the checkout can still resume it.
    if (via === 'keyless' && payment.metadata?.[LINK_PAYMENT_METADATA] !== undefined) {
      throw new DomainError(
        'INVALID_STATE',
        'This session belongs to a payment link: its checkout page finishes the payment',
        'sessionId',
      );
    }
    if (found.kind === 'apm') return toPaymentResponse(payment);

    // No key, so no clock offset from the gateway: the session's merchant decides whose clock this is.
    const clockScope = await this.clocks.clockScopeOf(found);
    return this.acquirer.resume(sessionId, clockScope, payment, details);
  }
}
