import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { PeriodicLoop } from '@app/platform';
import { BILLING_CONFIG, BillingConfig } from '../config';
import { RenewalRunner } from '../renewal/renewal-runner.service';

/**
 * Billing's time-driven work on real time, for production and every sandbox (as payments' sweeps): every
 * RENEWAL_POLL_MS (0 turns it off) it claims what fell due by now and runs it. Replicas run it side by side
 * with no leader: claims are FOR UPDATE SKIP LOCKED under a lease. Steps are stamped with real now (a sandbox
 * clock is never behind real time, so that is between the due time and the merchant's now).
 */
@Injectable()
export class RenewalLoop extends PeriodicLoop {
  readonly loopName = 'renewal';

  constructor(
    private readonly runner: RenewalRunner,
    private readonly clock: Clock,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.RENEWAL_POLL_MS;
  }

  protected work(): Promise<boolean> {
    return this.runOnce();
  }

  /** One round; answers whether a full batch was claimed (the loop goes again at once). */
  async runOnce(): Promise<boolean> {
    const now = this.clock.now();
    const claimed = await this.runner.round(now, () => now);
    return claimed >= this.config.RENEWAL_BATCH;
  }
}
