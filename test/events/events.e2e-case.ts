import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import * as contracts from '@app/contracts';
import { ALL_EVENT_TYPES, EVENT_STREAM_SUBJECTS, EventEnvelope, EVENTS_STREAM, EventTypes } from '@app/contracts';
import { ensureEventsStream, NatsClient } from '@app/messaging';
import { pino } from 'pino';
import { DurableEventConsumer } from '../../apps/webhooks/src/events/durable-consumer';
import { freePort } from '../support/ports';
import { runState } from '../support/run-state';
import { TestStack } from '../support/stack';
import { emit, envelopeOf, signatureValid } from '../webhooks/emit';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';

jest.setTimeout(60_000);

/** Every command subject declared in the contracts (the `cmd.` request-reply subjects). */
const commandSubjects = (): string[] =>
  (Object.values(contracts) as unknown[])
    .filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v))
    .flatMap((o) => Object.values(o))
    .filter((v): v is string => typeof v === 'string' && v.startsWith(`${contracts.COMMAND_PREFIX}.`));

describe('the EVENTS stream and its internal subscribers', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let m: string;
  let key: string;

  let receiver: WebhookReceiver;

  beforeAll(async () => {
    nc = await connect({ servers: runState().natsUrl });
    await ensureEventsStream(nc);
    receiver = await WebhookReceiver.start();
    stack = await webhookStack({
      services: ['payments'],
    });
    m = await stack.merchant();
    key = (await stack.key([m])).key;
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await nc?.close();
  });

  /** An internal subscriber as docs/events.md describes it, recording what it is handed. */
  async function subscriber(
    filter: string,
  ): Promise<{ seen: EventEnvelope[]; durable: string; stop: () => Promise<void> }> {
    const seen: EventEnvelope[] = [];
    const durable = `test_subscriber_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`;
    const consumer = new DurableEventConsumer(
      stack.gateway!.get(NatsClient),
      { durable, filterSubjects: [filter] },
      async (e) => void seen.push(e),
      pino({ level: 'silent' }),
    );
    consumer.start();
    return {
      seen,
      durable,
      stop: async () => {
        await consumer.stop();
        await (await nc.jetstreamManager()).consumers.delete(EVENTS_STREAM, durable);
      },
    };
  }

  it('captures every event type and never a command (cmd.>) or an internal broadcast', async () => {
    const jsm = await nc.jetstreamManager();
    for (const s of EVENT_STREAM_SUBJECTS) expect(s).not.toMatch(/^(>|\*|cmd\b|internal\b)/);
    for (const type of ALL_EVENT_TYPES) expect(await jsm.streams.find(type)).toBe(EVENTS_STREAM);
    const commands = commandSubjects();
    expect(commands).toContain(contracts.PaymentsSubjects.ping);
    for (const subject of [...commands, ...Object.values(contracts.GatewaySubjects), 'cmd.anything.new']) {
      await expect(jsm.streams.find(subject)).rejects.toThrow(/no stream matches subject/);
    }
    // Real command traffic (gateway → cmd.payments.ping → payments) next to a real event: only the event is kept.
    expect((await stack.http('GET', '/v1/ping', { key })).status).toBe(200);
    const event = await emit(stack.services.get('payments')![0], EventTypes.paymentPending, m, { id: 'pay_0' });
    const info = await until(
      () => jsm.streams.info(EVENTS_STREAM, { subjects_filter: '>' }),
      (i) => (i.state.subjects?.[event.type] ?? 0) > 0,
    );
    const stored = Object.keys(info.state.subjects ?? {});
    expect(stored).toContain(EventTypes.paymentPending);
    expect(stored.filter((s) => !ALL_EVENT_TYPES.includes(s as contracts.EventType))).toEqual([]);
  });

  it("an internal durable consumer gets an event from the payments service's outbox, in the envelope", async () => {
    const sub = await subscriber(EventTypes.paymentCaptured);
    try {
      const payments = stack.services.get('payments')![0];
      const data = { id: 'pay_1', status: 'captured', metadata: { order: '42' } };
      const event = await emit(payments, EventTypes.paymentCaptured, m, data);
      const mine = await until(
        () => sub.seen.filter((e) => e.id === event.id),
        (x) => x.length > 0,
      );
      expect(mine).toHaveLength(1);
      expect(mine[0]).toEqual({
        id: event.id,
        type: 'payment.captured',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        environment: 'sandbox',
        merchantCode: m,
        data,
      });
      // Acknowledged: the durable consumer has nothing outstanding.
      const jsm = await nc.jetstreamManager();
      const { durable } = sub;
      const info = await until(
        () => jsm.consumers.info(EVENTS_STREAM, durable),
        (i) => i.num_ack_pending === 0 && i.num_pending === 0,
      );
      expect(info.config).toMatchObject({ durable_name: durable, ack_policy: 'explicit', deliver_policy: 'all' });
    } finally {
      await sub.stop();
    }
  });

  it('a purchase emits payment.captured to internal subscribers and to the merchant endpoint', async () => {
    const ep = await stack.http('POST', '/v1/webhook-endpoint', {
      key,
      body: { url: receiver.url(), events: [EventTypes.paymentCaptured] },
    });
    expect(ep.status).toBe(201);
    const sub = await subscriber('payment.>');
    try {
      const purchase = await stack.http('POST', '/v1/payment/purchase', {
        key,
        body: {
          merchantCode: m,
          orderCode: `order-${Date.now()}`,
          amount: { currency: 'BRL', value: 1990, exponent: 2 },
          card: {
            cardData: {
              cardNumber: '4111111111111111',
              cardholderName: 'Ada Lovelace',
              expiryMonth: '12',
              expiryYear: String(new Date().getFullYear() + 2),
              cvv: '123',
            },
          },
          metadata: { cartId: 'c-1' },
        },
      });
      expect(purchase.status).toBe(200);
      expect(purchase.body.status).toBe('captured');
      const ofPayment = (e: EventEnvelope) => (e.data as { id?: string }).id === purchase.body.id;
      const captured = await until(
        () => sub.seen.filter((e) => ofPayment(e) && e.type === EventTypes.paymentCaptured),
        (x) => x.length > 0,
      );
      expect(captured).toHaveLength(1);
      expect(captured[0]).toMatchObject({ type: 'payment.captured', environment: 'sandbox', merchantCode: m });
      expect(captured[0].data).toMatchObject({
        id: purchase.body.id,
        status: 'captured',
        orderCode: purchase.body.orderCode,
        amount: { currency: 'BRL', value: 1990, exponent: 2 },
        metadata: { cartId: 'c-1' },
      });
      const got = await until(
        () => receiver.of(captured[0].id),
        (x) => x.length > 0,
      );
      expect(got).toHaveLength(1);
      expect(signatureValid(got[0].headers['webhook-signature'], got[0].body, ep.body.secret)).toBe(true);
      expect(envelopeOf(got[0].body)).toEqual(captured[0]);
    } finally {
      await sub.stop();
    }
  });
});

/**
 * A NATS server of this test's own, so that stopping it does not disturb the other test files that share the
 * run's server (jest runs files in parallel).
 */
class OwnNats {
  private child?: ChildProcess;
  readonly dir = mkdtempSync(join(tmpdir(), 'nats-restart-'));

  constructor(readonly port: number) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const binary = runState().natsBinary ?? 'nats-server';
    this.child = spawn(binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.dir], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      try {
        await (await connect({ servers: this.url, timeout: 500 })).close();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error('nats-server did not start');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('events across a NATS restart', () => {
  let natsServer: OwnNats;
  let stack: TestStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    natsServer = new OwnNats(await freePort());
    await natsServer.start();
    receiver = await WebhookReceiver.start();
    stack = await webhookStack({
      services: ['payments'],
      env: { NATS_URL: natsServer.url },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await natsServer?.dispose();
  });

  it('an outbox row written while NATS is down is published when it comes back, and delivered', async () => {
    const m = await stack.merchant();
    const { key } = await stack.key([m]);
    const ep = await stack.http('POST', '/v1/webhook-endpoint', {
      key,
      body: { url: receiver.url(), events: [EventTypes.paymentRefunded] },
    });
    expect(ep.status).toBe(201);
    const payments = stack.services.get('payments')![0];
    const before = await emit(payments, EventTypes.paymentRefunded, m, { id: 'pay_1' });
    await until(
      () => receiver.of(before.id),
      (x) => x.length > 0,
    );

    await natsServer.stop();
    const event = await emit(payments, EventTypes.paymentRefunded, m, { id: 'pay_2' });
    const publishedAt = () =>
      payments
        .get(DataSource)
        .query('SELECT published_at FROM outbox WHERE id = $1', [event.id])
        .then((rows: Array<{ published_at: Date | null }>) => rows[0]?.published_at ?? null);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await publishedAt()).toBeNull();
    expect(receiver.of(event.id)).toHaveLength(0);

    await natsServer.start();
    expect(await until(publishedAt, (v) => v !== null, 30_000)).not.toBeNull();
    const got = await until(
      () => receiver.of(event.id),
      (x) => x.length > 0,
      30_000,
    );
    expect(got).toHaveLength(1);
    expect(envelopeOf(got[0].body)).toEqual(event);
  });
});
