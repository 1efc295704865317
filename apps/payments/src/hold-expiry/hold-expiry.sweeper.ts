import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, ClockScope } from '@app/clock';
import { DueWork, sweepInBatches } from '@app/database';
import { LOGGER } from '@app/observability';
import { PollingLoop } from '@app/platform';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { decideHoldExpiry } from '../payment/payment-money';
import { applyDecision } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentEntity } from '../payment/payment.entity';
import { PaymentRepository, Scope } from '../payment/payment.repository';

const BATCH = 100;

/**
 * Voids authorizations whose hold ended (DECISIONS §3 Hold expiry): they become `cancelled` and emit
 * `payment.cancelled`; a later capture answers 409 AUTHORIZATION_EXPIRED. Rows are claimed with FOR UPDATE
 * SKIP LOCKED, so replicas sweeping together never void one twice.
 */
@Injectable()
export class HoldExpirySweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    private readonly clock: Clock,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.loop = new PollingLoop(
      async () => {
        const swept = await this.runOnce();
        if (swept) logger.info({ swept }, 'expired authorization holds cancelled');
        return false;
      },
      config.HOLD_EXPIRY_SWEEP_MS,
      (e) => logger.warn({ err: e }, 'hold-expiry sweep failed; will retry'),
    );
  }

  /** HOLD_EXPIRY_SWEEP_MS = 0 turns the periodic sweep off (runOnce still works, e.g. from a clock advance). */
  onApplicationBootstrap(): void {
    if (this.config.HOLD_EXPIRY_SWEEP_MS > 0) this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

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
