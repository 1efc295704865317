import { Injectable } from '@nestjs/common';
import { PeriodicLoop } from '@app/platform';
import { ThreeDsExpiryService } from './threeds-expiry.service';

const SWEEP_EVERY_MS = 30_000;

/** Every 30 seconds, abandons the payments whose 3DS session nobody resumed in time. */
@Injectable()
export class ThreeDsExpiryLoop extends PeriodicLoop {
  readonly loopName = 'threeds_expiry';

  constructor(private readonly expiry: ThreeDsExpiryService) {
    super();
  }

  protected everyMs(): number {
    return SWEEP_EVERY_MS;
  }

  protected async work(): Promise<boolean> {
    await this.expiry.runOnce();
    return false;
  }
}
