import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { LOGGER } from '@app/observability';
import { PollingLoop } from '@app/platform';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { NonceRepository } from './nonce.repository';

const BATCH = 500;

/**
 * Deletes SDK card nonces nobody used once their life ended in real time, every NONCE_SWEEP_MS, in batches
 * claimed with FOR UPDATE SKIP LOCKED (replicas side by side), so a sealed card number and CVV live no longer
 * than the nonce's 15 minutes plus one sweep interval, whatever a merchant's sandbox clock reads.
 */
@Injectable()
export class NonceSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    private readonly nonces: NonceRepository,
    private readonly clock: Clock,
    @Inject(PAYMENTS_CONFIG) config: PaymentsConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.loop = new PollingLoop(
      async () => {
        const swept = await this.sweepOnce();
        if (swept) logger.info({ swept }, 'expired card nonces deleted');
        return swept >= BATCH;
      },
      config.NONCE_SWEEP_MS,
      (e) => logger.warn({ err: e }, 'card nonce sweep failed; will retry'),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** One batch, by the service's clock without any sandbox offset (real time). */
  sweepOnce(): Promise<number> {
    return this.nonces.deleteExpired(this.clock.now(), BATCH);
  }
}
