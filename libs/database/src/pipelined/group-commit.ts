import { batchOrEach } from './batch-or-each';

/**
 * Group commit for single requests that share a batch path: items that arrive while the event loop is busy,
 * or while `maxInFlight` runs are out, go together in the next run (up to `maxBatch`), each with its own
 * answer. An idle service runs an item on its own in the next turn (no added wait); a loaded one pays for one
 * transaction per group instead of one per item. A run that throws is repeated for each item alone, so one
 * bad item fails only itself.
 */
export class GroupCommit<G, I, R> {
  private queue: Array<{ group: G; item: I; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    /** Runs items of one group (e.g. one merchant scope) together; answers one result per item, in order. */
    private readonly run: (group: G, items: I[]) => Promise<R[]>,
    /** Items of equal keys may share a run. */
    private readonly keyOf: (group: G) => string,
    private readonly maxInFlight: number,
    private readonly maxBatch: number,
  ) {}

  submit(group: G, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ group, item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.inFlight >= this.maxInFlight || !this.queue.length) return;
    const taken = this.queue.splice(0, this.maxBatch);
    this.inFlight += 1;
    // Whatever is left waits for the next free slot, as does what arrives meanwhile.
    this.schedule();
    try {
      const groups = new Map<string, typeof taken>();
      for (const t of taken) {
        const key = this.keyOf(t.group);
        const members = groups.get(key);
        if (members) members.push(t);
        else groups.set(key, [t]);
      }
      await Promise.all([...groups.values()].map((members) => this.runGroup(members)));
    } finally {
      this.inFlight -= 1;
      this.schedule();
    }
  }

  private async runGroup(members: GroupCommit<G, I, R>['queue']): Promise<void> {
    const outcomes = await batchOrEach(
      members.map((m) => m.item),
      (items) => this.run(members[0].group, items),
    );
    outcomes.forEach((o, i) => (o.status === 'fulfilled' ? members[i].resolve(o.value) : members[i].reject(o.reason)));
  }
}
