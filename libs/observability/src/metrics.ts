import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { withTimeout } from './timeout';

/** How long a scrape waits for a gauge read from the database. */
const READ_TIMEOUT_MS = 2_000;

/**
 * Prometheus metrics of one app: request counts and latency by route (or subject) and status, and the runs of
 * its background loops (every loop the same four series, labelled by loop name).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly published: Counter<'type'>;
  private readonly checkoutBlocked: Counter<'scope'>;
  private readonly authBlocked: Counter;
  private readonly inProgressCounts = new Map<string, () => number>();
  private readonly loopRuns: Counter<'loop'>;
  private readonly loopFailures: Counter<'loop'>;
  private readonly loopDuration: Histogram<'loop'>;
  /** Per started loop: when it last succeeded (ms since the epoch), or when it started until then. */
  private readonly loopLastSuccess = new Map<string, number>();
  private readonly ready: Gauge;
  private readonly readyTransitions: Counter;
  private readonly dependency: Gauge<'dependency'>;
  private lastReady?: boolean;

  constructor(app: string) {
    this.registry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'requests_total',
      help: 'Requests handled, by method (HTTP verb or "rpc"), route or subject, and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'request_duration_seconds',
      help: 'Request latency in seconds, by method, route or subject, and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.published = new Counter({
      name: 'outbox_events_published_total',
      help: 'Events the outbox relay published to JetStream, by event type (at least once: a retried publish counts again)',
      labelNames: ['type'],
      registers: [this.registry],
    });
    this.ready = new Gauge({
      name: 'readiness_ready',
      help: 'What /health/ready answered last: 1 ready, 0 not ready (stopping, or a dependency down where that gates readiness)',
      registers: [this.registry],
    });
    this.readyTransitions = new Counter({
      name: 'readiness_transitions_total',
      help: 'Times /health/ready changed its answer (ready to not ready or back)',
      registers: [this.registry],
    });
    this.dependency = new Gauge({
      name: 'dependency_up',
      help: 'Whether a dependency (database, nats) answered the last readiness check: 1 up, 0 down',
      labelNames: ['dependency'],
      registers: [this.registry],
    });
    this.checkoutBlocked = new Counter({
      name: 'checkout_attempts_blocked_total',
      help: 'Checkout payment attempts refused (429) after too many declines, by scope: "address" or "link"',
      labelNames: ['scope'],
      registers: [this.registry],
    });
    this.authBlocked = new Counter({
      name: 'auth_attempts_blocked_total',
      help: 'Requests refused (429) because their client address failed authentication too often',
      registers: [this.registry],
    });
    const counts = this.inProgressCounts;
    new Gauge({
      name: 'requests_in_progress',
      help: 'Requests (HTTP, this scrape included) or commands (rpc) being handled; a stopping app drains it to 0',
      labelNames: ['method'],
      registers: [this.registry],
      collect() {
        for (const [method, count] of counts) this.set({ method }, count());
      },
    });
    this.loopRuns = new Counter({
      name: 'loop_runs_total',
      help: 'Runs of a background loop (each claim of a batch is one run), failed ones included',
      labelNames: ['loop'],
      registers: [this.registry],
    });
    this.loopFailures = new Counter({
      name: 'loop_failures_total',
      help: 'Runs of a background loop that failed; the loop goes on at its next tick',
      labelNames: ['loop'],
      registers: [this.registry],
    });
    this.loopDuration = new Histogram({
      name: 'loop_duration_seconds',
      help: 'How long one run of a background loop took, in seconds',
      labelNames: ['loop'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60],
      registers: [this.registry],
    });
    const lastSuccess = this.loopLastSuccess;
    new Gauge({
      name: 'loop_last_success_age_seconds',
      help: 'Seconds since a running background loop last succeeded (since it started, before its first success)',
      labelNames: ['loop'],
      registers: [this.registry],
      collect() {
        const now = Date.now();
        for (const [loop, at] of lastSuccess) this.set({ loop }, (now - at) / 1000);
      },
    });
  }

  /**
   * A loop started: its counters are exported from now on (at zero until its first run), and the age of its
   * last success once it runs on a timer (one that only runs when kicked may rightly wait long).
   */
  loopStarted(loop: string, onTimer: boolean): void {
    this.loopRuns.inc({ loop }, 0);
    this.loopFailures.inc({ loop }, 0);
    if (onTimer) this.loopLastSuccess.set(loop, Date.now());
  }

  loopRan(loop: string, seconds: number, ok: boolean): void {
    this.loopRuns.inc({ loop });
    this.loopDuration.observe({ loop }, seconds);
    if (!ok) this.loopFailures.inc({ loop });
    else if (this.loopLastSuccess.has(loop)) this.loopLastSuccess.set(loop, Date.now());
  }

  /** `count()` is read at each scrape: a counter the request path keeps anyway costs nothing per request. */
  inProgress(method: 'http' | 'rpc', count: () => number): void {
    this.inProgressCounts.set(method, count);
  }

  observe(method: string, route: string, status: string | number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  checkoutAttemptBlocked(scope: 'address' | 'link'): void {
    this.checkoutBlocked.inc({ scope });
  }

  authAttemptBlocked(): void {
    this.authBlocked.inc();
  }

  /** Counts published events by type. */
  eventsPublished(types: readonly string[]): void {
    const counts = new Map<string, number>();
    for (const t of types) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [type, n] of counts) this.published.inc({ type }, n);
  }

  readiness(ready: boolean): void {
    this.ready.set(ready ? 1 : 0);
    if (this.lastReady !== undefined && this.lastReady !== ready) this.readyTransitions.inc();
    this.lastReady = ready;
  }

  dependencyUp(dependency: string, up: boolean): void {
    this.dependency.set({ dependency }, up ? 1 : 0);
  }

  /**
   * A gauge read at each scrape (a backlog counted in the database, a pool's connections): `read` answers one
   * value per label set. A read that fails or takes over READ_TIMEOUT_MS gives NaN for that scrape (no sample at
   * all for a labelled gauge), so a dashboard shows a gap and an alert neither fires nor clears on a stale value.
   */
  gaugeAtScrape<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Promise<Array<[Partial<Record<L, string>>, number]>> | Array<[Partial<Record<L, string>>, number]>,
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          const samples = await withTimeout(Promise.resolve(read()), READ_TIMEOUT_MS);
          for (const [labels, value] of samples) this.set(labels, value);
        } catch {
          if (!labelNames.length) this.set(NaN);
        }
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
