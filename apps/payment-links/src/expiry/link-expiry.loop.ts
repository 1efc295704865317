import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@app/observability';
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
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.LINK_EXPIRY_SWEEP_MS;
  }

  protected async work(): Promise<boolean> {
    const swept = await this.expiry.runOnce();
    if (swept) this.logger.info({ swept }, 'expired payment links swept');
    return false;
  }
}
