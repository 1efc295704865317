import { Inject, Injectable } from '@nestjs/common';
import { PeriodicLoop } from '@app/platform';
import { PAYMENT_LINKS_CONFIG, PaymentLinksConfig } from '../config';
import { LinkExpiry } from './link-expiry.service';

/** Every LINK_EXPIRY_SWEEP_MS (0 turns it off), expires the links whose expiry passed. */
@Injectable()
export class LinkExpiryLoop extends PeriodicLoop {
  readonly loopName = 'link_expiry';

  constructor(
    private readonly expiry: LinkExpiry,
    @Inject(PAYMENT_LINKS_CONFIG) private readonly config: PaymentLinksConfig,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.LINK_EXPIRY_SWEEP_MS;
  }

  protected async work(): Promise<boolean> {
    this.swept(await this.expiry.runOnce(), 'expired payment links swept');
    return false;
  }
}
