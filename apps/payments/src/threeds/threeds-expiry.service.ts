import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { DueWork } from '@app/database';
import { LOGGER } from '@app/observability';
import { ExpiryWork } from '@app/platform';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository, Scope } from '../payment/payment.repository';
import { move } from '../payment/payment-state';
import { PaymentSession } from './payment-session.entity';
import { PaymentSessionRepository } from './payment-session.repository';
import { moveThreeDs } from './session-state';

/**
 * A 3DS session nobody resumed within 15 minutes ends its payment: `pending_3ds` → `cancelled` (abandoned),
 * which frees the order code for a retry. Done lazily by resume and by the `threeds_expiry` sweep (ExpirySweepLoop), whichever
 * comes first.
 */
@Injectable()
export class ThreeDsExpiryService implements ExpiryWork<PaymentSession> {
  constructor(
    private readonly sessions: PaymentSessionRepository,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The sessions whose time ran out by `now` with nobody resuming them. */
  claimDue(m: EntityManager, now: Date, limit: number, scope?: Scope): Promise<PaymentSession[]> {
    return this.sessions.claimExpired(m, now, limit, { scope });
  }

  /** The 3DS session expiries of one merchant's sandbox, as a clock advance runs them: each at its expiresAt. */
  dueWork(scope: Scope): DueWork<PaymentSession> {
    return {
      claim: (m, upTo, limit) => this.sessions.claimExpired(m, upTo, limit, { scope, waitForLocks: true }),
      dueAt: (session) => session.expiresAt,
      run: (m, session, at) => this.expire(m, session, at),
    };
  }

  /** Marks a locked session expired and abandons its payment if it is still waiting. */
  async expire(m: EntityManager, session: PaymentSession, now: Date): Promise<void> {
    if (session.status === 'expired' || session.status === 'consumed') return;
    moveThreeDs(session, 'expire');
    session.cardKeyId = null;
    session.cardSealed = null;
    await this.sessions.save(m, session);
    const payment = await this.payments.lock(m, session, session.paymentId);
    if (payment.status !== 'pending_3ds') return;
    const event = move(payment, 'abandon');
    payment.cancelReason = 'abandoned';
    payment.actionRequired = null;
    payment.updatedAt = now;
    await this.recorder.changed(m, payment, event, now);
    this.logger.info(
      { paymentId: payment.id, merchantCode: payment.merchantCode },
      '3DS session expired; payment abandoned',
    );
  }
}
