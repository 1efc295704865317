import { Injectable } from '@nestjs/common';
import type { CircuitState, ConnectionFailureReason, ConnectionHealthView } from '@app/contracts';

/** How many recent calls the error rate is taken over. */
export const HEALTH_WINDOW = 100;
/** Failures in a row (unreachable, timed out) that open a connection's circuit. */
export const OPEN_AFTER_FAILURES = 5;
/** How long an open circuit waits before one trial call may go through it (half open). */
export const OPEN_FOR_MS = 30_000;

interface Tracker {
  /** The last HEALTH_WINDOW outcomes, true for ok, oldest first. */
  recent: boolean[];
  failuresInRow: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastFailureReason: ConnectionFailureReason | null;
  /** When the circuit opened; null while closed. */
  openedAt: number | null;
}

/**
 * A small circuit breaker per connection, in this replica's memory: every acquirer call through a connection
 * records whether the acquirer answered (an approval or a decline is an answer; unreachable or too slow is a
 * failure). After OPEN_AFTER_FAILURES failures in a row the circuit opens: routing tries the merchant's other
 * connections first. After OPEN_FOR_MS it is half open: the next payment may go through it as a trial, and a
 * success closes it, a failure opens it again. Real time (Date.now), not a sandbox clock: it measures the
 * provider, not the merchant's business time.
 */
@Injectable()
export class ConnectionHealth {
  private readonly trackers = new Map<string, Tracker>();

  /** Real time; a unit test sets its own. */
  now: () => number = Date.now;

  /** Called by the acquirer call path (AcquirerCalls) once per call through the connection; `reason` of a failure. */
  record(connectionId: string, ok: boolean, reason: ConnectionFailureReason = 'unreachable'): void {
    const t = this.trackerOf(connectionId);
    const at = this.now();
    t.recent.push(ok);
    if (t.recent.length > HEALTH_WINDOW) t.recent.shift();
    if (ok) {
      t.lastSuccessAt = at;
      t.failuresInRow = 0;
      t.openedAt = null;
      return;
    }
    t.lastFailureAt = at;
    t.lastFailureReason = reason;
    t.failuresInRow += 1;
    // A failed trial reopens at once; a closed circuit opens at the threshold.
    if (t.openedAt !== null || t.failuresInRow >= OPEN_AFTER_FAILURES) t.openedAt = at;
  }

  circuitOf(connectionId: string): CircuitState {
    const t = this.trackers.get(connectionId);
    if (!t || t.openedAt === null) return 'closed';
    return this.now() - t.openedAt >= OPEN_FOR_MS ? 'half_open' : 'open';
  }

  /** Open and not yet due for a trial: routing puts the connection after the others. */
  isOpen(connectionId: string): boolean {
    return this.circuitOf(connectionId) === 'open';
  }

  view(connectionId: string): ConnectionHealthView {
    const t = this.trackers.get(connectionId);
    const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
    const calls = t?.recent.length ?? 0;
    const failures = t?.recent.filter((ok) => !ok).length ?? 0;
    return {
      circuit: this.circuitOf(connectionId),
      lastSuccessAt: iso(t?.lastSuccessAt),
      lastFailureAt: iso(t?.lastFailureAt),
      lastFailureReason: t?.lastFailureReason ?? null,
      errorRate: calls ? Math.round((failures / calls) * 1000) / 1000 : 0,
      recentCalls: calls,
    };
  }

  private trackerOf(connectionId: string): Tracker {
    let t = this.trackers.get(connectionId);
    if (!t) {
      t = {
        recent: [],
        failuresInRow: 0,
        lastSuccessAt: null,
        lastFailureAt: null,
        lastFailureReason: null,
        openedAt: null,
      };
      this.trackers.set(connectionId, t);
    }
    return t;
  }
}
