import { mergeDue } from './due-work';

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
