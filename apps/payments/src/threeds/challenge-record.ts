import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentResponse } from '@app/contracts';
import { inTransaction } from '@app/database';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { AuthorizationOutcome } from '../connector/provider-connector';
import { applyOutcome } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository } from '../payment/payment.repository';
import { toPaymentResponse } from '../payment/payment.view';
import { AcquirerAttempt, ChallengeDetail } from '../reservation/acquirer-attempt';
import { AcquirerAttemptRepository } from '../reservation/acquirer-attempt.repository';
import { VaultService } from '../vault/vault.service';
import { PaymentSession } from './payment-session.entity';
import { PaymentSessionRepository } from './payment-session.repository';
import { CardToVault } from './threeds.service';

type SessionOf = Pick<PaymentSession, 'merchantCode' | 'environment' | 'paymentId'>;

/**
 * The record step of a 3DS resume: the acquirer's final answer applied to the payment waiting for 3DS (its
 * card vaulted when approved and asked for), its event, and the resume's attempt row settled. The resume
 * records with it, and so does the recovery sweep for a resume that died after its call.
 */
@Injectable()
export class ChallengeRecord {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly attempts: AcquirerAttemptRepository,
    private readonly sessions: PaymentSessionRepository,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    private readonly vault: VaultService,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  /** After the resume's acquirer call: the attempt settled and the answer recorded, in one transaction. */
  afterCall(
    attemptId: string,
    session: SessionOf,
    outcome: AuthorizationOutcome,
    now: Date,
    card?: CardToVault,
  ): Promise<PaymentResponse> {
    return inTransaction(this.db, async (m) => {
      await this.attempts.settle(m, attemptId);
      return this.record(m, session, outcome, now, card);
    });
  }

  /**
   * A resume that never recorded, in the recovery sweep's transaction: the acquirer's answer recorded, or,
   * when the acquirer did nothing, the session usable again for another resume.
   */
  async recover(
    m: EntityManager,
    a: AcquirerAttempt,
    detail: ChallengeDetail,
    found: AuthorizationOutcome | undefined,
    now: Date,
  ): Promise<'recorded' | 'released'> {
    await this.attempts.settle(m, a.id);
    if (!found) {
      await this.sessions.reopen(m, detail.sessionId);
      return 'released';
    }
    await this.record(m, a, found, now);
    return 'recorded';
  }

  /** The acquirer's final answer applied to the 3DS payment, in the caller's transaction. */
  private async record(
    m: EntityManager,
    session: SessionOf,
    outcome: AuthorizationOutcome,
    now: Date,
    card?: CardToVault,
  ): Promise<PaymentResponse> {
    const p = await this.payments.lock(m, session, session.paymentId);
    // Only this resume could move it (the session is used up), but never apply an answer twice.
    if (p.status !== 'pending_3ds') return toPaymentResponse(p);
    const event = applyOutcome(p, outcome, now, this.config.AUTH_HOLD_DAYS);
    if (outcome.kind === 'approved' && card) {
      p.token = await this.vault.store(
        session,
        {
          ...card,
          networkTransactionId: outcome.networkTransactionId,
          networkReferenceId: outcome.networkReferenceId,
          acquirer: p.acquirer,
        },
        now,
        m,
      );
    }
    return this.recorder.changed(m, p, event, now);
  }
}
