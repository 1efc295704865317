import { PollingLoop } from './polling-loop';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` holds, or fails after `ms`: no fixed sleep that a loaded machine can outrun. */
async function until(done: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await tick(2);
  }
}

describe('PollingLoop', () => {
  it('runs again at once while work reports more, then waits for the interval', async () => {
    let runs = 0;
    const loop = new PollingLoop(
      async () => ++runs < 3,
      10_000,
      () => undefined,
    );
    loop.start();
    await until(() => runs === 3);
    // The third run reported nothing more: the next one waits for the 10 s interval.
    await tick(50);
    expect(runs).toBe(3);
    await loop.stop();
  });

  it('never runs two at once; a kick during a run causes one more run after it', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    let release: () => void = () => undefined;
    const loop = new PollingLoop(
      async () => {
        runs++;
        maxActive = Math.max(maxActive, ++active);
        await new Promise<void>((r) => (release = r));
        active--;
        return false;
      },
      10_000,
      () => undefined,
    );
    loop.start();
    await until(() => runs === 1);
    loop.kick();
    loop.kick();
    release();
    await until(() => runs === 2);
    release();
    await tick(50);
    expect(maxActive).toBe(1);
    expect(runs).toBe(2);
    await loop.stop();
  });

  it('reports errors and keeps going; with no interval it runs only when kicked; stop waits for the run', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const loop = new PollingLoop(
      async () => {
        runs++;
        await tick(5);
        if (runs === 1) throw new Error('boom');
        return false;
      },
      0,
      (e) => errors.push(e),
    );
    loop.start();
    await until(() => errors.length === 1);
    await tick(50);
    expect(runs).toBe(1);
    loop.kick();
    await tick(1);
    await loop.stop();
    expect(runs).toBe(2);
    loop.kick();
    await tick(20);
    expect(runs).toBe(2);
  });
});
