import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, ClockScope } from '@app/clock';
import { DueWork, sweepInBatches } from '@app/database';
import { LOGGER } from '@app/observability';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository, Scope } from '../payment/payment.repository';
import { transition } from '../payment/payment-state';
import { PaymentSession } from './payment-session.entity';
import { PaymentSessionRepository } from './payment-session.repository';

const BATCH = 100;

/**
 * A 3DS session nobody resumed within 15 minutes ends its payment: `pending_3ds` → `cancelled` (abandoned),
 * which frees the order code for a retry. Done lazily by resume and by a sweep (ThreeDsExpiryLoop), whichever
 * comes first.
 */
@Injectable()
export class ThreeDsExpiryService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: PaymentSessionRepository,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Expires every due session (of one merchant's sandbox when `scope` is given, on its clock). */
  async runOnce(scope?: ClockScope): Promise<number> {
    const now = this.clock.now(scope);
    return sweepInBatches(
      this.db,
      BATCH,
      (m, limit) => this.sessions.claimExpired(m, now, limit, { scope }),
      (m, session) => this.expire(m, session, now),
    );
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
    session.status = 'expired';
    session.cardKeyId = null;
    session.cardSealed = null;
    await this.sessions.save(m, session);
    const payment = await this.payments.lock(m, session, session.paymentId);
    if (payment.status !== 'pending_3ds') return;
    const { to, event } = transition(payment.status, 'abandon');
    payment.status = to;
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
