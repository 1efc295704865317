/**
 * Gathers items that arrive during one event-loop turn (and while the previous batch is being handled) into
 * one batch, handled one batch at a time in arrival order. `drain()` resolves once everything added has been
 * handled. The handler must not throw: it settles each item itself.
 */
export class TurnBatcher<T> {
  private items: T[] = [];
  private running?: Promise<void>;

  constructor(
    private readonly handle: (batch: T[]) => Promise<void>,
    private readonly maxBatch = 100,
  ) {}

  add(item: T): void {
    this.items.push(item);
    this.running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.loop());
  }

  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  private async loop(): Promise<void> {
    try {
      while (this.items.length) await this.handle(this.items.splice(0, this.maxBatch));
    } finally {
      this.running = undefined;
    }
  }
}
