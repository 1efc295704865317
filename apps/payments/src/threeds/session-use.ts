import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, ClockScope, uuidv7 } from '@app/clock';
import { DomainError } from '@app/errors';
import { inTransaction } from '@app/database';
import { PaymentEntity } from '../payment/payment.entity';
import { AcquirerAttempt } from '../reservation/acquirer-attempt';
import { AcquirerAttemptRepository } from '../reservation/acquirer-attempt.repository';
import { VaultCipher } from '../vault/vault-cipher';
import { PaymentSession } from './payment-session.entity';
import { PaymentSessionRepository } from './payment-session.repository';
import { isExpired } from './session-links';
import { moveThreeDs } from './session-state';
import { ThreeDsExpiryService } from './threeds-expiry.service';
import { CardToVault, cardContext, sessionExpired, sessionNotFound } from './threeds.service';

/**
 * The reserve step of a 3DS resume: the session used up (single use), checked first for expiry (an expired
 * one also ends its payment, 400 SESSION_EXPIRED), then for a finished challenge (409 CHALLENGE_NOT_COMPLETED),
 * and an attempt row naming the request reference, in one transaction.
 */
@Injectable()
export class SessionUse {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: PaymentSessionRepository,
    private readonly expiry: ThreeDsExpiryService,
    private readonly cipher: VaultCipher,
    private readonly clock: Clock,
    private readonly attempts: AcquirerAttemptRepository,
  ) {}

  /**
   * Uses the session up, or says why not; an expired one also ends its payment. The card kept for the vault
   * comes out of the row in the same step.
   */
  async consume(
    sessionId: string,
    clockScope: ClockScope,
    payment: PaymentEntity,
    providerReturned = false,
  ): Promise<{ session: PaymentSession; card?: CardToVault; attempt: AcquirerAttempt }> {
    const result = await inTransaction(this.db, async (m) => {
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
      // The shopper came back from the provider's own challenge: the provider has the outcome, we ask it.
      if (s.status === 'pending' && providerReturned && s.providerAction) {
        moveThreeDs(s, 'authenticate');
        s.outcome = 'authenticated';
        s.completedAt = now;
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
      moveThreeDs(s, 'consume');
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

  /** The resume's answer was lost after it was sent: its attempt stays, marked, for the webhook or the sweep. */
  keepUnknown(attempt: AcquirerAttempt): Promise<void> {
    return this.attempts.markUnknown(attempt.id);
  }
}
