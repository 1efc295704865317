import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock, ClockScope } from '@app/clock';
import { LOGGER } from '@app/observability';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { decideHoldExpiry } from '../payment/payment-money';
import { applyDecision } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository } from '../payment/payment.repository';

const BATCH = 100;

/**
 * Voids authorizations whose hold ended (DECISIONS §3 Hold expiry): they become `cancelled` and emit
 * `payment.cancelled`; a later capture answers 409 AUTHORIZATION_EXPIRED. Rows are claimed with FOR UPDATE
 * SKIP LOCKED, so replicas sweeping together never void one twice.
 */
@Injectable()
export class HoldExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    private readonly clock: Clock,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.config.HOLD_EXPIRY_SWEEP_MS;
    if (every > 0) this.timer = setInterval(() => void this.tick(), every).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /**
   * Cancels every authorization whose hold ended by now and answers how many. Without a scope "now" is the
   * service clock's; a sandbox clock advance passes its merchant's scope to sweep up to that merchant's time.
   */
  async runOnce(scope?: ClockScope): Promise<number> {
    const now = this.clock.now(scope);
    let total = 0;
    for (;;) {
      const swept = await this.db.transaction(async (manager) => {
        const due = await this.payments.claimExpiredHolds(manager, now, BATCH, scope);
        for (const payment of due) {
          const event = applyDecision(payment, decideHoldExpiry(payment, now), now);
          await this.recorder.changed(manager, payment, event, now);
        }
        return due.length;
      });
      total += swept;
      if (swept < BATCH) return total;
    }
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = this.runOnce();
    try {
      const swept = await this.running;
      if (swept) this.logger.info({ swept }, 'expired authorization holds cancelled');
    } catch (e) {
      this.logger.warn({ err: e }, 'hold-expiry sweep failed; will retry');
    } finally {
      this.running = undefined;
    }
  }
}
