import { INestApplication } from '@nestjs/common';
import { Logger } from 'pino';
import { Draining } from '@app/observability';

export interface StopOptions {
  logger: Logger;
  /** SHUTDOWN_TIMEOUT_MS: the process exits by then, whatever is still running. */
  timeoutMs: number;
  /**
   * SHUTDOWN_DELAY_MS: how long the app keeps serving while unready before it stops taking work, so a balancer
   * that routes by readiness has seen it go (Kubernetes pauses in preStop instead). 0: stop at once.
   */
  delayMs?: number;
  /** Stops taking new work (HTTP connections, NATS commands); resolves once the work in hand is done. */
  stopIntake: () => Promise<void>;
}

/**
 * How a process stops when Kubernetes (SIGTERM, after the preStop pause) or a terminal (SIGINT) asks:
 * readiness turns false at once, and after `delayMs` (still serving meanwhile) the app stops taking work and
 * finishes what it holds, then `app.close()`
 * stops the workers (pollers, relay, consumers: beforeApplicationShutdown) before the database pools and
 * the NATS connection close (onApplicationShutdown). Exits 0 when done, 1 when SHUTDOWN_TIMEOUT_MS passes
 * first (counted from the end of the delay). A second signal changes nothing (a terminal's Ctrl-C reaches `npm start` and its children).
 */
export function stopOnSignals(app: INestApplication, o: StopOptions): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    app.get(Draining).begin();
    const delayMs = o.delayMs ?? 0;
    o.logger.info({ signal, timeoutMs: o.timeoutMs, delayMs }, 'stopping');
    setTimeout(() => {
      o.logger.warn({ timeoutMs: o.timeoutMs }, 'Not stopped within SHUTDOWN_TIMEOUT_MS; exiting anyway');
      process.exit(1);
    }, delayMs + o.timeoutMs).unref();
    // Without a delay the intake stops in this very turn: no connection slips in after the signal.
    const intakeStopped =
      delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => o.stopIntake()) : o.stopIntake();
    intakeStopped
      .then(() => app.close())
      .then(
        () => {
          o.logger.info({ ms: Date.now() - started }, 'stopped');
          process.exit(0);
        },
        (e: unknown) => {
          o.logger.error({ err: e }, 'Could not stop cleanly');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
