import { Injectable } from '@nestjs/common';

/** The points of a purchase where a crash test can have the payments process die, around an acquirer call. */
export const CRASH_POINTS = ['before_acquirer', 'after_acquirer'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/**
 * A seam for the crash tests, called at each crash point of a purchase. It does nothing: no setting turns it
 * on. The crash tests start the app through test/support/faults.js, which overrides this provider with one
 * that kills the process (SIGKILL) at the point named, as a power cut or an OOM kill would.
 */
@Injectable()
export class CrashPoints {
  at(point: CrashPoint): void {
    void point;
  }
}
