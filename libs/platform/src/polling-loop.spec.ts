import { PollingLoop } from './polling-loop';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('PollingLoop', () => {
  it('runs again at once while work reports more, then waits for the interval', async () => {
    let runs = 0;
    const loop = new PollingLoop(
      async () => ++runs < 3,
      10_000,
      () => undefined,
    );
    loop.start();
    await tick(20);
    expect(runs).toBe(3);
    await loop.stop();
  });

  it('never runs two at once; a kick during a run causes one more run after it', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const loop = new PollingLoop(
      async () => {
        runs++;
        maxActive = Math.max(maxActive, ++active);
        await tick(10);
        active--;
        return false;
      },
      10_000,
      () => undefined,
    );
    loop.start();
    await tick(2);
    loop.kick();
    loop.kick();
    await tick(40);
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
    await tick(20);
    expect(runs).toBe(1);
    expect(errors).toHaveLength(1);
    loop.kick();
    await tick(1);
    await loop.stop();
    expect(runs).toBe(2);
    loop.kick();
    await tick(10);
    expect(runs).toBe(2);
  });
});
