/**
 * Runs `work` every `everyMs`, never two at once. `work` answers whether more is waiting (a full batch), in
 * which case it runs again at once; `kick()` asks for a run now (or right after the current one). `everyMs`
 * ≤ 0 means no timer: the loop runs only when kicked. Used by every background worker (outbox relay, webhook
 * deliveries, sweepers), which claim their rows with FOR UPDATE SKIP LOCKED so replicas can run side by side.
 */
export class PollingLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;

  constructor(
    private readonly work: () => Promise<boolean>,
    private readonly everyMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0, true);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number, force = false): void {
    if (this.stopped || (!force && ms > 0 && this.everyMs <= 0)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    let more = false;
    this.running = this.work().then(
      (m) => void (more = m),
      (e: unknown) => this.onError(e),
    );
    await this.running;
    this.running = undefined;
    more ||= this.again;
    this.again = false;
    if (more) this.schedule(0, true);
    else if (this.everyMs > 0) this.schedule(this.everyMs);
  }
}
