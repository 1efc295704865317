import { Inject, Injectable } from '@nestjs/common';
import { PeriodicLoop } from '@app/platform';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { HoldExpiryService } from './hold-expiry.service';

/** Every HOLD_EXPIRY_SWEEP_MS (0 turns it off), cancels the authorizations whose hold ended. */
@Injectable()
export class HoldExpiryLoop extends PeriodicLoop {
  readonly loopName = 'hold_expiry';

  constructor(
    private readonly expiry: HoldExpiryService,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.HOLD_EXPIRY_SWEEP_MS;
  }

  protected async work(): Promise<boolean> {
    this.swept(await this.expiry.runOnce(), 'expired authorization holds cancelled');
    return false;
  }
}
