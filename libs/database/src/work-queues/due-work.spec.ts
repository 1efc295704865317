import { mergeDue, WorkBound } from './due-work';

const order = (r: ReturnType<typeof mergeDue>) => r.items.map((i) => `${i.source}:${i.dueAt}`);

describe('mergeDue', () => {
  it('interleaves short batches by due time and needs no further round', () => {
    const r = mergeDue(
      [
        [1, 4, 9],
        [2, 3, 10],
      ],
      5,
    );
    expect(order(r)).toEqual(['0:1', '1:2', '1:3', '0:4', '0:9', '1:10']);
    expect(r.more).toBe(false);
  });

  it('stops at the last row of a full batch: its unclaimed rows may come before the other batch’s later ones', () => {
    const r = mergeDue(
      [
        [1, 5],
        [2, 3, 8],
      ],
      2,
    );
    expect(order(r)).toEqual(['0:1', '1:2', '1:3', '0:5']);
    expect(r.more).toBe(true);
  });

  it('takes the earliest horizon of several full batches, and keeps source order for equal times', () => {
    const r = mergeDue(
      [
        [3, 7],
        [3, 4],
      ],
      2,
    );
    expect(order(r)).toEqual(['0:3', '1:3', '1:4']);
    expect(r.more).toBe(true);
  });

  it('always makes progress: a full batch runs at least up to its own last row', () => {
    const r = mergeDue([[10, 10], []], 2);
    expect(order(r)).toEqual(['0:10', '0:10']);
    expect(mergeDue([[], []], 2)).toEqual({ items: [], more: false });
  });
});

describe('WorkBound', () => {
  const at = (iso: string) => () => new Date(iso);

  it('stops after maxWork pieces', () => {
    const bound = WorkBound.of({ maxWork: 3 }, at('2026-01-01T00:00:00Z'));
    expect([bound.left(0), bound.left(2), bound.left(5)]).toEqual([3, 1, 0]);
    expect([bound.reached(2), bound.reached(3)]).toEqual([false, true]);
  });

  it('stops waitMs after the command arrived, on the service clock, and never without a bound', () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    const bound = WorkBound.of({ waitMs: 60_000 }, () => now);
    now = new Date('2026-01-01T00:00:59.999Z');
    expect(bound.reached(10_000)).toBe(false);
    now = new Date('2026-01-01T00:01:00.000Z');
    expect(bound.reached(0)).toBe(true);
    const none = WorkBound.of({}, at('2026-01-01T00:00:00Z'));
    expect([none.left(1e9), none.reached(1e9)]).toEqual([Infinity, false]);
  });
});
