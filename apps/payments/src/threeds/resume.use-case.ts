import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, ClockScope, uuidv7 } from '@app/clock';
import { PaymentResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { LOGGER } from '@app/observability';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { AcquirerOutcome } from '../connector/connector';
import { ConnectorRegistry } from '../connector/connector.registry';
import { applyOutcome } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository } from '../payment/payment.repository';
import { toPaymentResponse } from '../payment/payment.view';
import { PaymentSession } from './payment-session.entity';
import { PaymentSessionRepository } from './payment-session.repository';
import { isExpired } from './session-links';
import { ThreeDsExpiryService } from './threeds-expiry.service';
import { CardToVault, cardContext, sessionExpired, sessionNotFound } from './threeds.service';
import { VaultCipher } from '../vault/vault-cipher';
import { VaultService } from '../vault/vault.service';
import { SandboxClockCopy } from '@app/database';
import { PaymentEntity } from '../payment/payment.entity';
import { AcquirerAttempt, ChallengeDetail } from '../reservation/acquirer-attempt';
import { AcquirerAttemptRepository } from '../reservation/acquirer-attempt.repository';

/**
 * POST /v1/payment/resume (SPEC, DECISIONS §3). The session id is the credential. A 3DS session: expiry is
 * checked first (400 SESSION_EXPIRED), then single use (409 INVALID_STATE), then the challenge (409
 * CHALLENGE_NOT_COMPLETED); the acquirer gives the final answer. An APM session: the Payment as it stands.
 */
@Injectable()
export class ResumeUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: PaymentSessionRepository,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    private readonly connectors: ConnectorRegistry,
    private readonly expiry: ThreeDsExpiryService,
    private readonly vault: VaultService,
    private readonly cipher: VaultCipher,
    private readonly clock: Clock,
    private readonly clocks: SandboxClockCopy,
    private readonly attempts: AcquirerAttemptRepository,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(sessionId: string): Promise<PaymentResponse> {
    const found = await this.sessions.find(sessionId);
    if (!found) throw sessionNotFound();
    if (found.kind === 'apm') return toPaymentResponse(await this.payments.get(found, found.paymentId));

    // No key, so no clock offset from the gateway: the session's merchant decides whose clock this is.
    const clockScope = await this.clocks.clockScopeOf(found);
    const payment = await this.payments.get(found, found.paymentId);
    // Reserve (the session used up, an attempt row naming the request reference), call, record.
    const { session, card, attempt } = await this.consume(sessionId, clockScope, payment);
    const outcome = await this.completeWithAcquirer(session, attempt, {
      currency: payment.currency,
      value: payment.amountValue,
      exponent: payment.exponent,
    });
    return this.db.transaction(async (m) => {
      await this.attempts.settle(m, attempt.id);
      return this.record(m, session, outcome, this.clock.now(clockScope), card);
    });
  }

  /**
   * The acquirer's final answer applied to the 3DS payment (and its card vaulted when approved and asked for),
   * in the caller's transaction; also how the recovery sweep records a resume that died after the call.
   */
  async record(
    m: EntityManager,
    session: Pick<PaymentSession, 'merchantCode' | 'environment' | 'paymentId'>,
    outcome: AcquirerOutcome,
    now: Date,
    card?: CardToVault,
  ): Promise<PaymentResponse> {
    {
      const p = await this.payments.lock(m, session, session.paymentId);
      // Only this resume could move it (the session is used up), but never apply an answer twice.
      if (p.status !== 'pending_3ds') return toPaymentResponse(p);
      const event = applyOutcome(p, 'pending_3ds', outcome, now, this.config.AUTH_HOLD_DAYS);
      if (outcome.kind === 'approved' && card) {
        p.token = await this.vault.store(
          session,
          {
            ...card,
            networkTransactionId: outcome.networkTransactionId,
            networkReferenceId: outcome.networkReferenceId,
          },
          now,
          m,
        );
      }
      return this.recorder.changed(m, p, event, now);
    }
  }

  /**
   * Uses the session up, or says why not; an expired one also ends its payment. The card kept for the vault
   * comes out of the row in the same step.
   */
  private async consume(
    sessionId: string,
    clockScope: ClockScope,
    payment: PaymentEntity,
  ): Promise<{ session: PaymentSession; card?: CardToVault; attempt: AcquirerAttempt }> {
    const result = await this.db.transaction(async (m) => {
      const s = await this.sessions.lock(m, sessionId);
      if (!s) throw sessionNotFound();
      const now = this.clock.now(clockScope);
      if (s.status === 'expired' || isExpired(s, now)) {
        await this.expiry.expire(m, s, now);
        return { expired: true as const };
      }
      if (s.status === 'consumed') {
        throw DomainError.invalidState('This session was already used; read the payment with GET /v1/payment/{id}');
      }
      if (s.status === 'pending') {
        throw new DomainError(
          'CHALLENGE_NOT_COMPLETED',
          'The cardholder has not finished the 3DS challenge yet',
          'sessionId',
        );
      }
      const card =
        s.cardKeyId && s.cardSealed
          ? this.cipher.openJson<CardToVault>({ keyId: s.cardKeyId, blob: s.cardSealed }, cardContext(s, s.id))
          : undefined;
      s.status = 'consumed';
      s.consumedAt = now;
      s.cardKeyId = null;
      s.cardSealed = null;
      await this.sessions.save(m, s);
      const attempt: AcquirerAttempt = {
        id: uuidv7(),
        paymentId: s.paymentId,
        merchantCode: s.merchantCode,
        environment: s.environment,
        operation: 'resume',
        // One resume per session: the session names the request.
        requestReference: `rq_${s.id}`,
        connectionCode: payment.connectionCode,
        acquirer: payment.acquirer,
        idempotencyKey: null,
        detail: {
          kind: 'complete_challenge',
          sessionId: s.id,
          authenticated: s.outcome === 'authenticated',
          capture: s.intent === 'purchase',
          acquirerReference: s.acquirerReference ?? '',
        },
      };
      await this.attempts.insert(m, attempt);
      return { expired: false as const, session: s, card, attempt };
    });
    // The expiry is committed (the payment is abandoned) before the error answers.
    if (result.expired) throw sessionExpired();
    return { session: result.session, card: result.card, attempt: result.attempt };
  }

  private async completeWithAcquirer(
    s: PaymentSession,
    attempt: AcquirerAttempt,
    amount: { currency: string; value: number; exponent: number },
  ): Promise<AcquirerOutcome> {
    const detail = attempt.detail as ChallengeDetail;
    try {
      return await this.connectors.get(attempt.acquirer).completeChallenge({
        reference: attempt.requestReference,
        acquirerReference: detail.acquirerReference,
        authenticated: detail.authenticated,
        capture: detail.capture,
        amount,
      });
    } catch (e) {
      this.logger.error({ err: e, paymentId: s.paymentId }, 'Acquirer failed to complete the 3DS challenge');
      return { kind: 'failed', acquirerReference: s.acquirerReference, message: 'Acquirer error' };
    }
  }
}
