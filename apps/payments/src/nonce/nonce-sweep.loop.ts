import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { PeriodicLoop } from '@app/platform';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { NonceRepository } from './nonce.repository';

const BATCH = 500;

/**
 * Deletes SDK card nonces nobody used once their life ended in real time, every NONCE_SWEEP_MS, in batches
 * claimed with FOR UPDATE SKIP LOCKED (replicas side by side), so a sealed card number and CVV live no longer
 * than the nonce's 15 minutes plus one sweep interval, whatever a merchant's sandbox clock reads.
 */
@Injectable()
export class NonceSweepLoop extends PeriodicLoop {
  readonly loopName = 'nonce_sweep';

  constructor(
    private readonly nonces: NonceRepository,
    private readonly clock: Clock,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.NONCE_SWEEP_MS;
  }

  protected async work(): Promise<boolean> {
    return this.swept(await this.sweepOnce(), 'expired card nonces deleted', BATCH);
  }

  /** One batch, by the service's clock without any sandbox offset (real time). */
  sweepOnce(): Promise<number> {
    return this.nonces.deleteExpired(this.clock.now(), BATCH);
  }
}
