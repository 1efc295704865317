import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, ClockScope } from '@app/clock';
import { DueWork, sweepInBatches } from '@app/database';
import { decideHoldExpiry } from '../payment/payment-money';
import { applyDecision } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentEntity } from '../payment/payment.entity';
import { PaymentRepository, Scope } from '../payment/payment.repository';

const BATCH = 100;

/**
 * Voids authorizations whose hold ended (AUTH_HOLD_DAYS): they become `cancelled` and emit
 * `payment.cancelled`; a later capture answers 409 AUTHORIZATION_EXPIRED. Rows are claimed with FOR UPDATE
 * SKIP LOCKED, so replicas sweeping together never void one twice. Run by HoldExpiryLoop and by a sandbox
 * clock advance.
 */
@Injectable()
export class HoldExpiryService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    private readonly clock: Clock,
  ) {}

  /**
   * Cancels every authorization whose hold ended by now and answers how many. Without a scope "now" is the
   * service clock's; with one (a merchant's sandbox, with its clock offset) that merchant's clock decides.
   */
  async runOnce(scope?: ClockScope): Promise<number> {
    const now = this.clock.now(scope);
    return sweepInBatches(
      this.db,
      BATCH,
      (manager, limit) => this.payments.claimExpiredHolds(manager, now, limit, { scope }),
      (manager, payment) => this.expire(manager, payment, now),
    );
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

  private expire(manager: EntityManager, payment: PaymentEntity, now: Date): Promise<unknown> {
    const event = applyDecision(payment, decideHoldExpiry(payment, now), now);
    return this.recorder.changed(manager, payment, event, now);
  }
}
