import { Inject, Injectable } from '@nestjs/common';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';

/** Where a test can have the payments process die (PAYMENTS_TEST_CRASH_AT), around an acquirer call. */
export const CRASH_POINTS = ['before_acquirer', 'after_acquirer'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/**
 * Crash tests only: kills this process with SIGKILL at the named point, as a power cut or an OOM kill would,
 * so the recovery sweep can be tested against a real crash. Unset in every real deployment.
 */
@Injectable()
export class CrashPoints {
  private readonly point?: string;

  constructor(@Inject(PAYMENTS_CONFIG) config: PaymentsConfig) {
    this.point = config.PAYMENTS_TEST_CRASH_AT;
  }

  at(point: CrashPoint): void {
    if (this.point === point) process.kill(process.pid, 'SIGKILL');
  }
}
