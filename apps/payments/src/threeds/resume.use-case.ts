import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock, SandboxClockCopy } from '@app/clock';
import { LINK_PAYMENT_METADATA, PaymentResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { LOGGER } from '@app/observability';
import { AcquirerOutcomeUnknown } from '../connector/acquirer-call';
import { AuthorizationOutcome, ConnectorOutcomeUnknown } from '../connector/provider-connector';
import { ConnectorConnections } from '../connector/connector-connections';
import { PaymentRepository } from '../payment/payment.repository';
import { toPaymentResponse } from '../payment/payment.view';
import { AcquirerAttempt, ChallengeDetail } from '../reservation/acquirer-attempt';
import { ChallengeRecord } from './challenge-record';
import { PaymentSession } from './payment-session.entity';
import { PaymentSessionRepository } from './payment-session.repository';
import { SessionUse } from './session-use';
import { assertSessionSimulated } from './simulated-sessions';
import { sessionNotFound } from './threeds.service';

/**
 * `keyless`: POST /v1/payment/resume; `link-checkout`: a payment link's checkout, through payment-links;
 * `provider-return`: the shopper's browser back from a provider's 3DS page (the gateway's return URL).
 */
export type ResumeRoute = 'keyless' | 'link-checkout' | 'provider-return';

/**
 * POST /v1/payment/resume (docs/api.md, 3DS). The session id is the credential. A 3DS session: expiry is
 * checked first (400 SESSION_EXPIRED), then single use (409 INVALID_STATE), then the challenge (409
 * CHALLENGE_NOT_COMPLETED); the acquirer gives the final answer. An APM session: the Payment as it stands.
 */
@Injectable()
export class ResumeUseCase {
  constructor(
    private readonly sessions: PaymentSessionRepository,
    private readonly payments: PaymentRepository,
    private readonly uses: SessionUse,
    private readonly challenges: ChallengeRecord,
    private readonly connections: ConnectorConnections,
    private readonly clock: Clock,
    private readonly clocks: SandboxClockCopy,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The shopper is back from the provider's 3DS page with what the provider added (`details`): the payment is
   * resumed with them. A second return (a reload) answers the payment as it stands.
   */
  async providerReturn(sessionId: string, details: Record<string, string>): Promise<PaymentResponse> {
    const found = await this.sessions.find(sessionId, 'threeds');
    if (!found?.providerAction) throw sessionNotFound();
    if (found.status === 'consumed') return toPaymentResponse(await this.payments.get(found, found.paymentId));
    return this.run(sessionId, 'provider-return', details);
  }

  async run(sessionId: string, via: ResumeRoute, details?: Record<string, string>): Promise<PaymentResponse> {
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
    // Reserve (the session used up, an attempt row naming the request reference), call, record.
    const { session, card, attempt } = await this.uses.consume(sessionId, clockScope, payment, details !== undefined);
    const outcome = await this.completeWithAcquirer(
      session,
      attempt,
      { currency: payment.currency, value: payment.amountValue, exponent: payment.exponent },
      details,
    );
    return this.challenges.afterCall(attempt.id, session, outcome, this.clock.now(clockScope), card);
  }

  private async completeWithAcquirer(
    s: PaymentSession,
    attempt: AcquirerAttempt,
    amount: { currency: string; value: number; exponent: number },
    details: Record<string, string> | undefined,
  ): Promise<AuthorizationOutcome> {
    const detail = attempt.detail as ChallengeDetail;
    try {
      const { connector, connection } = await this.connections.through(attempt);
      return await connector.completeChallenge(connection, {
        reference: attempt.requestReference,
        acquirerReference: detail.acquirerReference,
        authenticated: detail.authenticated,
        capture: detail.capture,
        amount,
        details,
      });
    } catch (e) {
      // The provider may have approved: never guessed, the attempt waits for its webhook or a status sync.
      if (e instanceof ConnectorOutcomeUnknown) {
        await this.uses.keepUnknown(attempt);
        throw new AcquirerOutcomeUnknown(s.paymentId);
      }
      this.logger.error({ err: e, paymentId: s.paymentId }, 'Acquirer failed to complete the 3DS challenge');
      return { kind: 'failed', acquirerReference: s.acquirerReference, message: 'Acquirer error' };
    }
  }
}
