import { BeforeApplicationShutdown, Inject, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Logger } from 'pino';
import { inSpan, LOGGER, Metrics, tracingOn } from '@app/observability';

/** What a loop needs from its app: given by a factory provider that builds it (a loop class Nest builds is injected). */
export interface LoopWiring {
  readonly schedulerRegistry: SchedulerRegistry;
  readonly metrics: Metrics;
  readonly log: Logger;
}

/**
 * A background loop of an app. A subclass names itself (`loopName`), says how often it runs (`everyMs`) and
 * what one run does (`work`); this class does the rest, the same way for every loop:
 * - it starts once the app is ready (onApplicationBootstrap: migrations have run, every provider is built),
 *   with a first run right away, then one every `everyMs` on an interval registered in @nestjs/schedule's
 *   SchedulerRegistry under the loop's name;
 * - it never overlaps itself: a tick that comes while a run is still going is skipped;
 * - a run that answers `true` (a full batch: more is waiting) is followed by another at once, and `kick()`
 *   asks for a run now (or right after the current one);
 * - a failed run is logged and counted; the loop goes on at its next tick;
 * - on shutdown (beforeApplicationShutdown, while the database pool and NATS are still open) it takes no new
 *   run and waits for the one in flight;
 * - every run is measured in the app's Metrics: loop_runs_total, loop_failures_total, loop_duration_seconds
 *   and loop_last_success_age_seconds, labelled `loop`;
 * - with tracing on, every run is a trace of its own (`loop <name>`): what it does (statements, commands,
 *   publishes, deliveries) are spans inside it.
 * `work` claims its rows with FOR UPDATE SKIP LOCKED, so replicas run the same loop side by side.
 */
export abstract class PeriodicLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  @Inject(SchedulerRegistry) private readonly schedulerRegistry!: SchedulerRegistry;
  @Inject(Metrics) private readonly loopMetrics!: Metrics;
  /** The app's logger, for the subclass's own lines too. */
  @Inject(LOGGER) protected readonly log!: Logger;

  /** The loop's label in the metrics and its interval's name in the SchedulerRegistry (snake_case). */
  abstract readonly loopName: string;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;

  constructor(wiring?: LoopWiring) {
    if (wiring) {
      this.schedulerRegistry = wiring.schedulerRegistry;
      this.loopMetrics = wiring.metrics;
      this.log = wiring.log;
    }
  }

  /** Milliseconds between runs, read at start; 0 or less: no timer, the loop runs only when kicked. */
  protected abstract everyMs(): number;

  /** One run: claims a batch and does it; answers whether more is waiting (the loop then runs again at once). */
  protected abstract work(): Promise<boolean>;

  /**
   * The end of a sweep's run: logs how many rows it took under `message` when it took any, and answers whether
   * it took a full `batch` (more is waiting; a sweep without a batch size takes all in one run).
   */
  protected swept(count: number, message: string, batch = Infinity): boolean {
    if (count) this.log.info({ swept: count }, message);
    return count >= batch;
  }

  onApplicationBootstrap(): void {
    this.startLoop();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stopLoop();
  }

  /** Runs the loop now, or once more right after the run in flight. */
  kick(): void {
    if (this.running) this.again = true;
    else this.tick();
  }

  protected startLoop(): void {
    this.stopped = false;
    const ms = this.everyMs();
    this.loopMetrics.loopStarted(this.loopName, ms > 0);
    if (ms <= 0) return;
    this.schedulerRegistry.addInterval(this.loopName, setInterval(() => this.tick(), ms).unref());
    setImmediate(() => this.tick());
  }

  /** Takes no new run and resolves once the run in flight (if any) is over. */
  protected async stopLoop(): Promise<void> {
    this.stopped = true;
    if (this.schedulerRegistry.doesExist('interval', this.loopName)) {
      this.schedulerRegistry.deleteInterval(this.loopName);
    }
    await this.running;
  }

  private tick(): void {
    if (this.stopped || this.running) return;
    this.running = this.runWhileMore();
  }

  private async runWhileMore(): Promise<void> {
    try {
      let more: boolean;
      do {
        this.again = false;
        more = (await this.measuredRun()) || this.again;
        // Other callbacks get their turn between two runs, even when a run does no I/O.
        if (more) await new Promise((resolve) => setImmediate(resolve));
      } while (more && !this.stopped);
    } finally {
      this.running = undefined;
    }
  }

  private async measuredRun(): Promise<boolean> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const more = tracingOn()
        ? await inSpan(`loop ${this.loopName}`, { root: true, attributes: { 'loop.name': this.loopName } }, () =>
            this.work(),
          )
        : await this.work();
      this.loopMetrics.loopRan(this.loopName, seconds(), true);
      return more;
    } catch (e) {
      this.loopMetrics.loopRan(this.loopName, seconds(), false);
      this.log.warn({ err: e, loop: this.loopName }, 'background loop run failed; it runs again at its next tick');
      return false;
    }
  }
}
