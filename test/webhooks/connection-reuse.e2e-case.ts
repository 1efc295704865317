import { createServer, Server } from 'node:https';
import { LookupAddress } from 'node:dns';
import { AddressInfo } from 'node:net';
import { TLSSocket } from 'node:tls';
import { connect, NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { EventTypes } from '@app/contracts';
import { DEFAULT_EVENTS_STREAM_LIMITS } from '@app/messaging';
import { DEFAULT_AGENT_LIMITS } from '../../apps/webhooks/src/webhooks/target-agents';
import { WebhookSender } from '../../apps/webhooks/src/webhooks/webhook-sender';
import { WebhookOptions } from '../../apps/webhooks/src/webhooks/webhooks.options';
import { runState } from '../support/run-state';
import { TestStack } from '../support/stack';
import { selfSignedCert, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';
import { publishEvent, signatureValid } from './emit';

// Real servers, a real stack; Jest ignores testTimeout inside a project entry (default 5 s).
jest.setTimeout(90_000);

/** An HTTPS receiver on one loopback address that counts the TLS connections it accepts and the resumed ones. */
class CountingReceiver {
  connections = 0;
  resumed = 0;
  readonly ids: string[] = [];
  readonly bodies: Array<{ id: string; body: string; signature: string }> = [];

  private constructor(private readonly server: Server) {}

  static async start(host: string, port = 0): Promise<CountingReceiver> {
    const server = createServer({ ...selfSignedCert(), keepAliveTimeout: 30_000 });
    const receiver = new CountingReceiver(server);
    server.on('secureConnection', (socket: TLSSocket) => {
      receiver.connections++;
      if (socket.isSessionReused()) receiver.resumed++;
    });
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        receiver.ids.push(id);
        const signature = String(req.headers['webhook-signature']);
        receiver.bodies.push({ id, body: Buffer.concat(chunks).toString('utf8'), signature });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Drops every open connection, as a receiver restart or its idle timeout would. */
  dropConnections(): void {
    this.server.closeAllConnections();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('webhook sender: kept-alive connections to the checked address only', () => {
  const PUBLIC_FOR_THIS_TEST = new Set(['127.0.0.1', '127.0.0.2']);
  let first: CountingReceiver;
  let second: CountingReceiver;
  /** What `hooks.localhost` resolves to right now: the test's DNS. */
  let answer: LookupAddress[] = [{ address: '127.0.0.1', family: 4 }];
  let sender: WebhookSender;
  let url: string;

  beforeAll(async () => {
    first = await CountingReceiver.start('127.0.0.1');
    second = await CountingReceiver.start('127.0.0.2', first.port);
    // The certificate names localhost: the URL's host is it, and the test's DNS decides where it goes.
    url = `https://localhost:${first.port}/hook`;
    const options: WebhookOptions = {
      allowPrivateTargets: false,
      retrySchedule: [1],
      maxEndpoints: 16,
      timeoutMs: 5_000,
      pollMs: 100,
      consumerName: 'unused',
      stream: DEFAULT_EVENTS_STREAM_LIMITS,
      extraCa: selfSignedCert().cert,
      resolver: async () => answer,
      // Loopback stands in for the internet here: 127.0.0.1 and 127.0.0.2 pass the address rule, nothing else.
      isPublicAddress: (address) => PUBLIC_FOR_THIS_TEST.has(address),
    };
    sender = new WebhookSender(options);
  });
  afterAll(async () => {
    sender?.onApplicationShutdown();
    await first?.close();
    await second?.close();
  });

  /** `n` signed POSTs, `parallel` at a time; answers their outcomes. */
  async function send(n: number, parallel = 20) {
    const outcomes = [];
    for (let i = 0; i < n; i += parallel) {
      const group = Array.from({ length: Math.min(parallel, n - i) }, (_, j) =>
        sender.send({ url, eventId: `evt_${i + j}`, body: `{"n":${i + j}}`, secrets: ['whsec_test'] }),
      );
      outcomes.push(...(await Promise.all(group)));
    }
    return outcomes;
  }

  it('sends many deliveries over a few connections (at most the sockets per target)', async () => {
    const outcomes = await send(200);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(200);
    expect(first.ids).toHaveLength(200);
    // A new connection per POST (the sender before) would be 200.
    expect(first.connections).toBeGreaterThanOrEqual(1);
    expect(first.connections).toBeLessThanOrEqual(DEFAULT_AGENT_LIMITS.socketsPerTarget);
  });

  it('follows a DNS change to another public address: no try goes over a connection to the old one', async () => {
    const before = first.ids.length;
    answer = [{ address: '127.0.0.2', family: 4 }];
    const outcomes = await send(20);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(second.ids).toHaveLength(20);
    expect(first.ids).toHaveLength(before);
  });

  it('refuses a DNS change to a private address although connections to the host are open', async () => {
    const [firstSeen, secondSeen] = [first.ids.length, second.ids.length];
    const [firstConnections, secondConnections] = [first.connections, second.connections];
    answer = [{ address: '127.0.0.3', family: 4 }];
    const outcomes = await send(10);
    expect(outcomes.map((o) => o.error)).toEqual(Array(10).fill('private_target'));
    expect(outcomes.every((o) => o.responseStatus === null)).toBe(true);
    expect([first.ids.length, second.ids.length]).toEqual([firstSeen, secondSeen]);
    expect([first.connections, second.connections]).toEqual([firstConnections, secondConnections]);
    // A mix of a public and a private address is refused as a whole.
    answer = [
      { address: '127.0.0.1', family: 4 },
      { address: '127.0.0.3', family: 4 },
    ];
    expect((await send(1))[0].error).toBe('private_target');
    expect(first.ids).toHaveLength(firstSeen);
  });

  it('reuses the open connections when the answer comes back, and resumes TLS sessions on new ones', async () => {
    answer = [{ address: '127.0.0.1', family: 4 }];
    const connections = first.connections;
    expect((await send(20)).every((o) => o.ok)).toBe(true);
    expect(first.connections).toBe(connections);
    // The receiver drops its connections: the next tries open new ones, resuming the cached TLS session.
    first.dropConnections();
    await new Promise((r) => setTimeout(r, 200));
    expect((await send(20)).every((o) => o.ok)).toBe(true);
    expect(first.connections).toBeGreaterThan(connections);
    expect(first.resumed).toBeGreaterThanOrEqual(1);
  });
});

describe('webhook delivery through the service: many events, few connections', () => {
  let stack: TestStack;
  let receiver: CountingReceiver;
  let nc: NatsConnection;

  beforeAll(async () => {
    receiver = await CountingReceiver.start('127.0.0.1');
    nc = await connect({ servers: runState().natsUrl });
    stack = await webhookStack({ services: [] });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await nc?.close();
  });

  it('delivers 150 events to one endpoint, every one signed and recorded, over a few connections', async () => {
    const m = await stack.merchant();
    const { key } = await stack.key([m]);
    const url = `https://127.0.0.1:${receiver.port}/hook`;
    const r = await stack.http('POST', '/v1/webhook-endpoint', { key, body: { url, events: ['*'] } });
    expect(r.status).toBe(201);
    const events = [];
    for (let i = 0; i < 150; i++) events.push(await publishEvent(nc, EventTypes.invoicePaid, m, { id: `inv_${i}` }));
    const ids = new Set(events.map((e) => e.id));
    await until(
      () => receiver.ids.filter((id) => ids.has(id)),
      (got) => new Set(got).size === ids.size,
      60_000,
    );
    expect(new Set(receiver.ids)).toEqual(ids);
    expect(receiver.bodies.every((b) => signatureValid(b.signature, b.body, r.body.secret))).toBe(true);
    expect(receiver.connections).toBeLessThanOrEqual(DEFAULT_AGENT_LIMITS.socketsPerTarget);
    const db = stack.webhooks.get(DataSource);
    const recorded = await until(
      async () =>
        (await db.query(
          `SELECT a.status, count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
           WHERE d.endpoint_id = $1 GROUP BY a.status`,
          [r.body.id],
        )) as Array<{ status: string; n: number }>,
      (rows) => rows.length === 1 && rows[0].n === 150,
    );
    expect(recorded).toEqual([{ status: 'succeeded', n: 150 }]);
    const deliveries: Array<{ status: string; n: number }> = await db.query(
      `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status`,
      [r.body.id],
    );
    expect(deliveries).toEqual([{ status: 'succeeded', n: 150 }]);
  });
});
