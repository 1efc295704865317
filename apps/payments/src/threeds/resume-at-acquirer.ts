import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock, ClockScope } from '@app/clock';
import { PaymentResponse } from '@app/contracts';
import { LOGGER } from '@app/observability';
import { AcquirerOutcomeUnknown } from '../connector/acquirer-call';
import { AuthorizationOutcome, ConnectorOutcomeUnknown } from '../connector/provider-connector';
import { ConnectorConnections } from '../routing/connector-connections';
import { PaymentEntity } from '../payment/payment.entity';
import { AcquirerAttempt, ChallengeDetail } from '../reservation/acquirer-attempt';
import { ChallengeRecord } from './challenge-record';
import { PaymentSession } from './payment-session.entity';
import { SessionUse } from './session-use';

/**
 * The acquirer's part of a 3DS resume: reserve (the session used up, an attempt row naming the request
 * reference), call the acquirer to complete the challenge, record its answer.
 */
@Injectable()
export class ResumeAtAcquirer {
  constructor(
    private readonly uses: SessionUse,
    private readonly challenges: ChallengeRecord,
    private readonly connections: ConnectorConnections,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async resume(
    sessionId: string,
    clockScope: ClockScope,
    payment: PaymentEntity,
    details: Record<string, string> | undefined,
  ): Promise<PaymentResponse> {
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
