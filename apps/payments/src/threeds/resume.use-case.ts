import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock, ClockScope } from '@app/clock';
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
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(sessionId: string): Promise<PaymentResponse> {
    const found = await this.sessions.find(sessionId);
    if (!found) throw sessionNotFound();
    if (found.kind === 'apm') return toPaymentResponse(await this.payments.get(found, found.paymentId));

    // No key, so no clock offset from the gateway: the session's merchant decides whose clock this is.
    const clockScope = await this.clocks.clockScopeOf(found);
    const { session, card } = await this.consume(sessionId, clockScope);
    const payment = await this.payments.get(session, session.paymentId);
    const outcome = await this.completeWithAcquirer(session, payment.acquirer, {
      currency: payment.currency,
      value: payment.amountValue,
      exponent: payment.exponent,
    });
    return this.db.transaction(async (m) => {
      const p = await this.payments.lock(m, session, session.paymentId);
      // Only this resume could move it (the session is used up), but never apply an answer twice.
      if (p.status !== 'pending_3ds') return toPaymentResponse(p);
      const now = this.clock.now(clockScope);
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
    });
  }

  /**
   * Uses the session up, or says why not; an expired one also ends its payment. The card kept for the vault
   * comes out of the row in the same step.
   */
  private async consume(
    sessionId: string,
    clockScope: ClockScope,
  ): Promise<{ session: PaymentSession; card?: CardToVault }> {
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
      return { expired: false as const, session: s, card };
    });
    // The expiry is committed (the payment is abandoned) before the error answers.
    if (result.expired) throw sessionExpired();
    return { session: result.session, card: result.card };
  }

  private async completeWithAcquirer(
    s: PaymentSession,
    acquirer: string,
    amount: { currency: string; value: number; exponent: number },
  ): Promise<AcquirerOutcome> {
    try {
      return await this.connectors.get(acquirer).completeChallenge({
        acquirerReference: s.acquirerReference ?? '',
        authenticated: s.outcome === 'authenticated',
        capture: s.intent === 'purchase',
        amount,
      });
    } catch (e) {
      this.logger.error({ err: e, paymentId: s.paymentId }, 'Acquirer failed to complete the 3DS challenge');
      return { kind: 'failed', acquirerReference: s.acquirerReference, message: 'Acquirer error' };
    }
  }
}
