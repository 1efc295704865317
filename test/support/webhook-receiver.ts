import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { selfSignedCert } from './self-signed-cert';
import { TestStack } from './stack';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
  status: number;
}

/** "ok" or "no", nothing with a 204. */
export const plainAnswer = (status: number): string => (status === 204 ? '' : status < 300 ? 'ok' : 'no');

export { selfSignedCert };

/**
 * A merchant's HTTPS webhook receiver on 127.0.0.1: records every request, answers what `respond` says
 * (200 by default; `failFirst(n)` makes the first n answers 500).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: (n: number, body: string, headers: Record<string, string | string[] | undefined>, path: string) => number =
    () => 200;
  /** The answer's body for a status. */
  answer: (status: number) => string = plainAnswer;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer(selfSignedCert());
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = receiver.respond(receiver.received.length + 1, body, req.headers, req.url ?? '');
        receiver.received.push({ path: req.url ?? '', headers: req.headers, body, at: Date.now(), status });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(receiver.answer(status));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  failFirst(n: number): void {
    this.respond = (i) => (i <= n ? 500 : 200);
  }

  /** Requests whose body is the envelope of this event. */
  of(eventId: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.headers['webhook-id'] === eventId);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A test stack whose gateways deliver webhooks to a WebhookReceiver on this host: they trust its self-signed
 * certificate, may send to a private address and look for due deliveries every 100 ms.
 */
export function webhookStack(o: Parameters<typeof TestStack.start>[0] = {}): Promise<TestStack> {
  return TestStack.start({
    webhookCa: selfSignedCert().cert,
    ...o,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DISPATCH_POLL_MS: '100', ...o.env },
  });
}
