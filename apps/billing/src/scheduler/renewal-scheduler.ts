import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { LOGGER } from '@app/observability';
import { PollingLoop } from '@app/platform';
import { BILLING_CONFIG, BillingConfig } from '../config';
import { RenewalRunner } from '../renewal/renewal-runner.service';

/**
 * Billing's time-driven work on real time, for production and every sandbox (as payments' sweeps): every
 * RENEWAL_POLL_MS it claims what fell due by now and runs it. Replicas run it side by side with no leader:
 * claims are FOR UPDATE SKIP LOCKED under a lease. Steps are stamped with real now (a sandbox clock is never
 * behind real time, so that is between the due time and the merchant's now).
 */
@Injectable()
export class RenewalScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    private readonly runner: RenewalRunner,
    private readonly clock: Clock,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.loop = new PollingLoop(
      () => this.runOnce(),
      config.RENEWAL_POLL_MS,
      (e) => logger.warn({ err: e }, 'renewal round failed; will retry'),
    );
  }

  onApplicationBootstrap(): void {
    if (this.config.RENEWAL_POLL_MS > 0) this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** One round; answers whether a full batch was claimed (the loop goes again at once). */
  async runOnce(): Promise<boolean> {
    const now = this.clock.now();
    const claimed = await this.runner.round(now, () => now);
    return claimed >= this.config.RENEWAL_BATCH;
  }

  /** Wakes the loop now (e.g. a bench that seeded due rows). */
  kick(): void {
    this.loop.kick();
  }
}
