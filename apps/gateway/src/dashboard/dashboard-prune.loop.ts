import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { PeriodicLoop } from '@app/platform';
import { DASHBOARD_OPTIONS, DashboardOptions } from './dashboard-options';
import { DashboardSessionsRepository } from './dashboard-sessions.repository';

const BATCH = 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
/** An ended session is kept this long after it ended, then deleted. */
export const ENDED_SESSION_KEPT_MS = 24 * 3600_000;

/**
 * Keeps the dashboard's tables small: deletes sessions that have been over for a day (signed out, idle or past
 * their absolute expiry) and failed sign-ins that no lockout window counts any more, a bounded batch of each at
 * a time, every ten minutes. Neither is ever read again: a session past its end is refused whether its row is
 * there or not. Each replica runs one (SKIP LOCKED).
 */
@Injectable()
export class DashboardPruneLoop extends PeriodicLoop {
  readonly loopName = 'dashboard_prune';

  constructor(
    private readonly sessions: DashboardSessionsRepository,
    private readonly clock: Clock,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {
    super();
  }

  protected everyMs(): number {
    return SWEEP_EVERY_MS;
  }

  protected work(): Promise<boolean> {
    return this.sweep();
  }

  /** One batch of each; answers whether either was full (more may be due). */
  async sweep(): Promise<boolean> {
    const now = this.clock.now().getTime();
    const sessions = await this.sessions.pruneSessions(
      new Date(now - ENDED_SESSION_KEPT_MS),
      this.options.idleMs,
      BATCH,
    );
    const attempts = await this.sessions.pruneAttempts(new Date(now - this.options.lockoutWindowMs), BATCH);
    if (sessions || attempts)
      this.log.info({ sessions, attempts }, 'Ended dashboard sessions and old sign-in failures deleted');
    return sessions >= BATCH || attempts >= BATCH;
  }
}
