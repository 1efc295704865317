import { FactoryProvider, Type } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, ClockScope } from '@app/clock';
import { sweepInBatches } from '@app/database';
import { LOGGER, Metrics, StoredTrace } from '@app/observability';
import { LoopWiring, PeriodicLoop } from './periodic-loop';

/** What an expiry sweep ends: its due rows claimed, and each one ended in the claim's transaction. */
export interface ExpiryWork<T extends StoredTrace> {
  /**
   * Up to `limit` rows due by `now` (of one merchant's sandbox when `scope` is given), claimed with FOR UPDATE
   * SKIP LOCKED (replicas split the work).
   */
  claimDue(manager: EntityManager, now: Date, limit: number, scope?: ClockScope): Promise<T[]>;
  /** Ends one claimed row as of `now` (its transition and its event in the outbox). */
  expire(manager: EntityManager, row: T, now: Date): Promise<unknown>;
}

/** One expiry sweep of an app. */
export interface ExpirySweep<T extends StoredTrace> {
  /** The loop's label in the metrics and its trace's name (`loop <name>`), snake_case. */
  readonly name: string;
  /** Milliseconds between runs: the app's *_SWEEP_MS setting (0 turns the timer off). */
  readonly everyMs: number;
  /** The provider that claims and ends the due rows. */
  readonly work: Type<ExpiryWork<T>>;
  /** What a run that ended rows logs, with their count. */
  readonly swept: string;
  /** Rows per transaction (default 100). */
  readonly batch?: number;
}

const BATCH = 100;

/**
 * The one loop of every expiry sweep (authorization holds, 3DS sessions, payment links): each run takes the
 * clock's now, claims the rows due by then in batches and ends each in the batch's transaction, until a batch
 * comes back short (sweepInBatches: with tracing on the run links to each claimed row's stored trace). An app
 * registers one per sweep: `ExpirySweepLoop.register({ name, everyMs, work, swept })`.
 */
export class ExpirySweepLoop<T extends StoredTrace> extends PeriodicLoop {
  readonly loopName: string;

  constructor(
    wiring: LoopWiring,
    private readonly sweep: ExpirySweep<T>,
    private readonly expiry: ExpiryWork<T>,
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {
    super(wiring);
    this.loopName = sweep.name;
  }

  /** The provider of one sweep; `ExpirySweepLoop.tokenOf(name)` finds it in the app. */
  static register<T extends StoredTrace>(sweep: ExpirySweep<T>): FactoryProvider<ExpirySweepLoop<T>> {
    return {
      provide: ExpirySweepLoop.tokenOf(sweep.name),
      inject: [SchedulerRegistry, Metrics, LOGGER, getDataSourceToken(), Clock, sweep.work],
      useFactory: (
        schedulerRegistry: SchedulerRegistry,
        metrics: Metrics,
        log: Logger,
        db: DataSource,
        clock: Clock,
        expiry: ExpiryWork<T>,
      ) => new ExpirySweepLoop({ schedulerRegistry, metrics, log }, sweep, expiry, db, clock),
    };
  }

  static tokenOf(name: string): string {
    return `ExpirySweepLoop:${name}`;
  }

  /**
   * Ends every row due by the clock's now and answers how many. The timer's runs go by real time (a sandbox
   * clock ahead of it is swept by its advances); with `scope`, one merchant's sandbox rows by its own clock.
   */
  runOnce(scope?: ClockScope): Promise<number> {
    const now = this.clock.now(scope);
    return sweepInBatches(
      this.db,
      this.sweep.batch ?? BATCH,
      (manager, limit) => this.expiry.claimDue(manager, now, limit, scope),
      (manager, row) => this.expiry.expire(manager, row, now),
    );
  }

  protected everyMs(): number {
    return this.sweep.everyMs;
  }

  protected async work(): Promise<boolean> {
    this.swept(await this.runOnce(), this.sweep.swept);
    return false;
  }
}
