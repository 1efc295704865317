import { Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { PeriodicLoop } from '@app/platform';
import { CheckoutAttemptsRepository } from './checkout-attempts.repository';

const BATCH = 1000;
const SWEEP_EVERY_MS = 60 * 1000;

/**
 * Deletes the card-testing limit's attempts that no longer count (a decline past its window, a place that
 * lapsed), a bounded batch at a time, once a minute; the counts never read them, this only keeps the table
 * small. Each replica runs one (SKIP LOCKED).
 */
@Injectable()
export class CheckoutAttemptsPruneLoop extends PeriodicLoop {
  readonly loopName = 'checkout_attempts_prune';

  constructor(
    private readonly attempts: CheckoutAttemptsRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected everyMs(): number {
    return SWEEP_EVERY_MS;
  }

  protected async work(): Promise<boolean> {
    return this.swept(await this.attempts.prune(this.clock.now(), BATCH), 'Lapsed checkout attempts deleted', BATCH);
  }
}
