import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one app: request counts and latency by route (or subject) and status. */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly published: Counter;
  private readonly checkoutBlocked: Counter<'scope'>;
  private readonly authBlocked: Counter;
  private readonly inProgressCounts = new Map<string, () => number>();

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
      help: 'Events the outbox relay published to JetStream',
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

  eventsPublished(n: number): void {
    if (n > 0) this.published.inc(n);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
