import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { PeriodicLoop } from '@app/platform';
import { BILLING_CONFIG, BillingConfig } from '../config';
import { CARD_CHECK_BATCH, CardCheckRunner } from './card-check.runner';

/**
 * The account updater's sweep on real time, every ACCOUNT_UPDATER_POLL_MS (0 turns it off): replicas run it
 * side by side, their claims are FOR UPDATE SKIP LOCKED. A sandbox clock advance runs the merchant's own first.
 */
@Injectable()
export class CardCheckLoop extends PeriodicLoop {
  readonly loopName = 'account_updater';

  constructor(
    private readonly runner: CardCheckRunner,
    private readonly clock: Clock,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.ACCOUNT_UPDATER_POLL_MS;
  }

  protected async work(): Promise<boolean> {
    const claimed = await this.runner.round(this.clock.now());
    return this.swept(claimed, 'account updater checked cards', CARD_CHECK_BATCH);
  }
}
