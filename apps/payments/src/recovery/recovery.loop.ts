import { Inject, Injectable } from '@nestjs/common';
import { linkRunTo } from '@app/observability';
import { PeriodicLoop } from '@app/platform';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { AcquirerAttemptRepository, AttemptAlreadyResolved } from '../reservation/acquirer-attempt.repository';
import { RecoveryService } from './recovery.service';

const BATCH = 50;
/** A live request is done with its attempt by its acquirer deadline; past it by this much, nobody will be. */
const GRACE_MS = 2_000;

/**
 * Every RECOVERY_SWEEP_MS, resolves the acquirer attempts older than the acquirer deadline (ACQUIRER_TIMEOUT_MS):
 * their request died between reserve and record. Attempts are claimed with FOR UPDATE SKIP LOCKED and a lease,
 * so replicas share the work and none holds a transaction while the acquirer is asked. With tracing on, a run
 * (a trace of its own) links to the trace of the request that reserved each attempt it claimed.
 */
@Injectable()
export class RecoveryLoop extends PeriodicLoop {
  readonly loopName = 'acquirer_recovery';

  constructor(
    private readonly attempts: AcquirerAttemptRepository,
    private readonly recovery: RecoveryService,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.RECOVERY_SWEEP_MS;
  }

  protected async work(): Promise<boolean> {
    return (await this.runOnce()) >= BATCH;
  }

  /** Resolves one batch of stale attempts; answers how many were claimed. */
  async runOnce(): Promise<number> {
    const deadline = this.config.ACQUIRER_TIMEOUT_MS + GRACE_MS;
    const claimed = await this.attempts.claimStale(deadline, BATCH, 2 * deadline);
    linkRunTo(claimed);
    for (const attempt of claimed) {
      try {
        const resolution = await this.recovery.resolve(attempt);
        this.log.info(
          { paymentId: attempt.paymentId, operation: attempt.operation, resolution },
          'acquirer attempt recovered',
        );
      } catch (e) {
        // Recorded meanwhile: nothing left to do. Anything else: the lease lapses and a later sweep retries.
        if (!(e instanceof AttemptAlreadyResolved)) {
          this.log.warn({ err: e, paymentId: attempt.paymentId }, 'acquirer attempt not recovered yet');
        }
      }
    }
    return claimed.length;
  }
}
