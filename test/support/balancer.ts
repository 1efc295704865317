import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';

interface Backend {
  url: URL;
  ready: boolean;
  /** Polls in a row that got no answer (refused, reset, timed out). */
  unanswered: number;
}

/** Polls without an answer before a backend is taken out, as a probe's failureThreshold; a 503 takes it out at once. */
const UNANSWERED_LIMIT = 3;
/** How long a poll waits for an answer, as a probe's timeoutSeconds. */
const POLL_TIMEOUT_MS = 2_000;

/**
 * An HTTP load balancer that routes by readiness, as a Kubernetes Service's endpoints or a proxy with active
 * health checks do: it polls each backend's /health/ready every `pollMs` (a backend answering anything but 200
 * is out at once, one that does not answer three polls in a row too) and sends each request to the next ready
 * backend (round robin), on a new connection, without retrying. A request that a backend refuses or drops
 * is answered 502 with `x-balancer-error` naming the network error, so a client counts it as lost.
 */
export class ReadinessBalancer {
  private readonly backends: Backend[] = [];
  private next = 0;
  private polling = true;
  private readonly poller: Promise<void>;

  private constructor(
    private readonly server: Server,
    private readonly pollMs: number,
  ) {
    this.poller = this.poll();
  }

  static async start(o: { pollMs: number }): Promise<ReadinessBalancer> {
    const server = createServer();
    const balancer = new ReadinessBalancer(server, o.pollMs);
    server.on('request', (req, res) => balancer.forward(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** A backend joins unready; it takes requests from its first successful readiness poll. */
  add(url: string): void {
    this.backends.push({ url: new URL(url), ready: false, unanswered: 0 });
  }

  /** Backends ready at the last poll. */
  readyUrls(): string[] {
    return this.backends.filter((b) => b.ready).map((b) => b.url.origin);
  }

  async stop(): Promise<void> {
    this.polling = false;
    await this.poller;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async poll(): Promise<void> {
    while (this.polling) {
      await Promise.all(
        this.backends.map(async (b) => {
          try {
            const res = await fetch(new URL('/health/ready', b.url), { signal: AbortSignal.timeout(POLL_TIMEOUT_MS) });
            await res.arrayBuffer();
            b.ready = res.status === 200;
            b.unanswered = 0;
          } catch {
            if (++b.unanswered >= UNANSWERED_LIMIT) b.ready = false;
          }
        }),
      );
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }

  private pick(): Backend | undefined {
    const ready = this.backends.filter((b) => b.ready);
    if (!ready.length) return undefined;
    return ready[this.next++ % ready.length];
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const backend = this.pick();
    if (!backend) {
      res.writeHead(503, { 'x-balancer-error': 'no ready backend' }).end();
      return;
    }
    const upstream = request(
      {
        host: backend.url.hostname,
        port: backend.url.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, connection: 'close' },
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (e: Error & { code?: string }) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'x-balancer-error': e.code ?? e.message }).end();
    });
    req.pipe(upstream);
  }
}
