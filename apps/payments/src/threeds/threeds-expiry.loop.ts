import { Inject, Injectable } from '@nestjs/common';
import { PeriodicLoop } from '@app/platform';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { ThreeDsExpiryService } from './threeds-expiry.service';

/** Every THREEDS_EXPIRY_SWEEP_MS (0 turns it off), abandons the payments whose 3DS session nobody resumed in time. */
@Injectable()
export class ThreeDsExpiryLoop extends PeriodicLoop {
  readonly loopName = 'threeds_expiry';

  constructor(
    private readonly expiry: ThreeDsExpiryService,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.THREEDS_EXPIRY_SWEEP_MS;
  }

  protected async work(): Promise<boolean> {
    this.swept(await this.expiry.runOnce(), '3DS sessions expired; their payments abandoned');
    return false;
  }
}
