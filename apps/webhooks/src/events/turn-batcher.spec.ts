import { TurnBatcher } from './turn-batcher';

const turn = () => new Promise((r) => setImmediate(r));

describe('TurnBatcher', () => {
  it('hands what arrived in one turn over as one batch, and what arrived meanwhile as the next', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const batcher = new TurnBatcher<number>(async (b) => {
      batches.push(b);
      if (batches.length === 1) await gate;
    });
    [1, 2, 3].forEach((n) => batcher.add(n));
    expect(batches).toEqual([]);
    await turn();
    expect(batches).toEqual([[1, 2, 3]]);
    batcher.add(4);
    await turn();
    batcher.add(5);
    await turn();
    expect(batches).toEqual([[1, 2, 3]]);
    release();
    await batcher.drain();
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('never hands over more than the maximum at once, and drain waits for every item', async () => {
    const seen: number[][] = [];
    const batcher = new TurnBatcher<number>(async (b) => void seen.push(b), 2);
    [1, 2, 3, 4, 5].forEach((n) => batcher.add(n));
    await batcher.drain();
    expect(seen).toEqual([[1, 2], [3, 4], [5]]);
    batcher.add(6);
    await batcher.drain();
    expect(seen.at(-1)).toEqual([6]);
  });
});
