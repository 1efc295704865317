import { GroupCommit } from './group-commit';

const turn = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('runs an item alone when nothing else waits', async () => {
    const runs: number[][] = [];
    const g = new GroupCommit<string, number, number>(
      async (_g, items) => (runs.push(items), items.map((i) => i * 2)),
      (k) => k,
      2,
      100,
    );
    await expect(g.submit('a', 1)).resolves.toBe(2);
    expect(runs).toEqual([[1]]);
  });

  it('groups what arrives in one turn by key, and what arrives while the slots are busy into the next run', async () => {
    const runs: Array<[string, number[]]> = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const g = new GroupCommit<string, number, number>(
      async (key, items) => {
        runs.push([key, items]);
        await gate;
        return items.map((i) => i + 100);
      },
      (k) => k,
      1,
      100,
    );
    const first = [g.submit('a', 1), g.submit('b', 2), g.submit('a', 3)];
    await turn();
    // One slot, busy: these wait for it, then go together.
    const later = [g.submit('a', 4), g.submit('a', 5)];
    await turn();
    expect(runs).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
    release();
    await expect(Promise.all([...first, ...later])).resolves.toEqual([101, 102, 103, 104, 105]);
    expect(runs[2]).toEqual(['a', [4, 5]]);
  });

  it('repeats a failed group item by item, so only the bad item fails', async () => {
    const g = new GroupCommit<string, number, number>(
      async (_k, items) => {
        if (items.includes(13)) throw new Error('bad item');
        return items;
      },
      (k) => k,
      4,
      100,
    );
    const results = await Promise.allSettled([g.submit('a', 1), g.submit('a', 13), g.submit('a', 2)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('never puts more than maxBatch items in one run', async () => {
    const sizes: number[] = [];
    const g = new GroupCommit<string, number, number>(
      async (_k, items) => (sizes.push(items.length), items),
      (k) => k,
      1,
      3,
    );
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => g.submit('a', i)));
    expect(sizes).toEqual([3, 3, 1]);
  });
});
