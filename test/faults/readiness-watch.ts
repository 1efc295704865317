import { AppProcess } from '../support/processes';
import { sleep } from '../support/wait';

/** One answer of GET /health/ready. */
export interface ReadyAnswer {
  at: number;
  status: number;
  body?: { status?: string; checks?: Record<string, string> };
}

/**
 * Polls each app's /health/ready every 100 ms, as a kubelet would (more often), and keeps every answer, so a
 * test can say when an app turned unready and when it was ready again.
 */
export class ReadinessWatch {
  readonly answers = new Map<string, ReadyAnswer[]>();
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(apps: AppProcess[]) {
    this.loops = apps.map((app) => this.poll(app));
  }

  private async poll(app: AppProcess): Promise<void> {
    const list: ReadyAnswer[] = [];
    this.answers.set(app.name, list);
    while (this.running) {
      const at = Date.now();
      try {
        const res = await fetch(`${app.url}/health/ready`, { signal: AbortSignal.timeout(10_000) });
        const text = await res.text();
        list.push({ at, status: res.status, body: text.startsWith('{') ? JSON.parse(text) : undefined });
      } catch {
        list.push({ at, status: 0 });
      }
      await sleep(100);
    }
  }

  /** The latest answer of `name`. */
  last(name: string): ReadyAnswer | undefined {
    const list = this.answers.get(name) ?? [];
    return list[list.length - 1];
  }

  /** Whether `name` answered unready (503) at any time since `at`; a poll that got no answer does not count. */
  unreadySince(name: string, at: number): boolean {
    return this.since(name, at).some((a) => a.status === 503);
  }

  /** Answers of `name` since `at`. */
  since(name: string, at: number): ReadyAnswer[] {
    return (this.answers.get(name) ?? []).filter((a) => a.at >= at);
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}
