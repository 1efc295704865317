import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DueWork } from '@app/database';
import { ExpiryWork } from '@app/platform';
import { decideHoldExpiry } from '../payment/payment-money';
import { applyDecision } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentEntity } from '../payment/payment.entity';
import { PaymentRepository, Scope } from '../payment/payment.repository';

/**
 * Voids authorizations whose hold ended (AUTH_HOLD_DAYS): they become `cancelled` and emit
 * `payment.cancelled`; a later capture answers 409 AUTHORIZATION_EXPIRED. Rows are claimed with FOR UPDATE
 * SKIP LOCKED, so replicas sweeping together never void one twice. Run by the `hold_expiry` sweep
 * (ExpirySweepLoop) and by a sandbox clock advance.
 */
@Injectable()
export class HoldExpiryService implements ExpiryWork<PaymentEntity> {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
  ) {}

  /** The authorizations whose hold ended by `now`. */
  claimDue(manager: EntityManager, now: Date, limit: number, scope?: Scope): Promise<PaymentEntity[]> {
    return this.payments.claimExpiredHolds(manager, now, limit, { scope });
  }

  /** The hold expiries of one merchant's sandbox, as a clock advance runs them: each as of its hold's end. */
  dueWork(scope: Scope): DueWork<PaymentEntity> {
    return {
      claim: (manager, upTo, limit) =>
        this.payments.claimExpiredHolds(manager, upTo, limit, { scope, waitForLocks: true }),
      dueAt: (payment) => payment.holdExpiresAt!,
      run: (manager, payment, at) => this.expire(manager, payment, at),
    };
  }

  expire(manager: EntityManager, payment: PaymentEntity, now: Date): Promise<unknown> {
    const event = applyDecision(payment, decideHoldExpiry(payment, now), now);
    return this.recorder.changed(manager, payment, event, now);
  }
}
