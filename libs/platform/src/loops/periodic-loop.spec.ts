import { Injectable } from '@nestjs/common';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { Test, TestingModule } from '@nestjs/testing';
import pino from 'pino';
import { LOGGER, Metrics } from '@app/observability';
import { PeriodicLoop } from './periodic-loop';

const pause = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` holds, or fails after `ms`: no fixed sleep that a loaded machine can outrun. */
async function until(done: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await pause(2);
  }
}

/** A loop whose runs the test drives: each run waits for `release()` when `hold` is set. */
@Injectable()
class TestLoop extends PeriodicLoop {
  readonly loopName = 'test_loop';
  interval = 10_000;
  runs = 0;
  active = 0;
  maxActive = 0;
  finished = 0;
  hold = false;
  failNext = false;
  more = 0;
  private waiting: Array<() => void> = [];

  protected everyMs(): number {
    return this.interval;
  }

  protected async work(): Promise<boolean> {
    this.runs++;
    this.maxActive = Math.max(this.maxActive, ++this.active);
    try {
      if (this.hold) await new Promise<void>((r) => this.waiting.push(r));
      if (this.failNext) {
        this.failNext = false;
        throw new Error('run failed');
      }
      return this.more-- > 0;
    } finally {
      this.active--;
      this.finished++;
    }
  }

  release(): void {
    this.hold = false;
    this.waiting.splice(0).forEach((r) => r());
  }
}

async function started(configure: (loop: TestLoop) => void = () => undefined) {
  const metrics = new Metrics('loops_test');
  const moduleRef: TestingModule = await Test.createTestingModule({
    imports: [ScheduleModule.forRoot()],
    providers: [
      TestLoop,
      { provide: Metrics, useValue: metrics },
      { provide: LOGGER, useValue: pino({ level: 'silent' }) },
    ],
  }).compile();
  const loop = moduleRef.get(TestLoop);
  configure(loop);
  await moduleRef.init();
  return { loop, metrics, moduleRef, registry: moduleRef.get(SchedulerRegistry) };
}

/** The value of one series of the loop's metrics, from the app's /metrics text. */
async function sample(metrics: Metrics, name: string): Promise<number | undefined> {
  const line = (await metrics.text())
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && l.includes('loop="test_loop"'));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('PeriodicLoop', () => {
  it('runs once at start, registers its interval in the SchedulerRegistry, and runs on each tick', async () => {
    const { loop, registry, moduleRef } = await started((l) => (l.interval = 30));
    try {
      expect(registry.getIntervals()).toEqual(['test_loop']);
      await until(() => loop.runs >= 3);
    } finally {
      await moduleRef.close();
    }
    expect(registry.getIntervals()).toEqual([]);
  });

  it('runs again at once while a run answers that more is waiting, then waits for the next tick', async () => {
    const { loop, moduleRef } = await started((l) => (l.more = 2));
    try {
      await until(() => loop.runs === 3);
      await pause(50);
      expect(loop.runs).toBe(3);
    } finally {
      await moduleRef.close();
    }
  });

  it('never overlaps itself: ticks during a run are skipped, not queued', async () => {
    const { loop, moduleRef } = await started((l) => ((l.interval = 5), (l.hold = true)));
    try {
      await until(() => loop.runs === 1);
      // Some 20 ticks pass while the first run is held.
      await pause(100);
      expect(loop.runs).toBe(1);
      loop.release();
      await until(() => loop.runs >= 3);
      expect(loop.maxActive).toBe(1);
    } finally {
      await moduleRef.close();
    }
  });

  it('a kick during a run causes one more run right after it', async () => {
    const { loop, moduleRef } = await started((l) => (l.hold = true));
    try {
      await until(() => loop.runs === 1);
      loop.kick();
      loop.kick();
      loop.release();
      await until(() => loop.runs === 2);
      await pause(50);
      expect({ runs: loop.runs, maxActive: loop.maxActive }).toEqual({ runs: 2, maxActive: 1 });
    } finally {
      await moduleRef.close();
    }
  });

  it('stopping waits for the run in flight to finish, and no run starts afterwards', async () => {
    const { loop, moduleRef } = await started((l) => ((l.interval = 5), (l.hold = true)));
    await until(() => loop.runs === 1);
    let closed = false;
    const closing = moduleRef.close().then(() => (closed = true));
    await pause(50);
    expect({ closed, finished: loop.finished }).toEqual({ closed: false, finished: 0 });
    loop.release();
    await closing;
    expect(loop.finished).toBe(1);
    loop.kick();
    await pause(50);
    expect(loop.runs).toBe(1);
  });

  it('with an interval of 0 it has no timer and runs only when kicked', async () => {
    const { loop, registry, moduleRef } = await started((l) => (l.interval = 0));
    try {
      await pause(50);
      expect({ runs: loop.runs, intervals: registry.getIntervals() }).toEqual({ runs: 0, intervals: [] });
      loop.kick();
      await until(() => loop.runs === 1);
    } finally {
      await moduleRef.close();
    }
  });

  it('records runs, failures, duration and the age of the last success; a failed run does not stop the loop', async () => {
    const { loop, metrics, moduleRef } = await started((l) => (l.hold = true));
    try {
      // Started: exported at zero before the first run ends.
      expect(await sample(metrics, 'loop_runs_total')).toBe(0);
      expect(await sample(metrics, 'loop_failures_total')).toBe(0);
      expect(await sample(metrics, 'loop_last_success_age_seconds')).toBeGreaterThanOrEqual(0);
      await until(() => loop.runs === 1);
      loop.failNext = true;
      loop.release();
      await until(() => loop.finished === 1);
      await pause(20);
      expect(await sample(metrics, 'loop_runs_total')).toBe(1);
      expect(await sample(metrics, 'loop_failures_total')).toBe(1);
      expect(await sample(metrics, 'loop_duration_seconds_count')).toBe(1);
      const ageAfterFailure = (await sample(metrics, 'loop_last_success_age_seconds'))!;
      // The loop goes on: the next run succeeds and resets the age.
      loop.kick();
      await until(() => loop.finished === 2);
      await pause(20);
      expect(await sample(metrics, 'loop_runs_total')).toBe(2);
      expect(await sample(metrics, 'loop_failures_total')).toBe(1);
      expect(await sample(metrics, 'loop_last_success_age_seconds')).toBeLessThanOrEqual(ageAfterFailure);
    } finally {
      await moduleRef.close();
    }
  });
});
