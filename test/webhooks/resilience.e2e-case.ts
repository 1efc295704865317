import { NatsConnection, connect } from 'nats';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { EventEnvelope, EventTypes } from '@app/contracts';
import { runState } from '../support/run-state';
import { TestStack } from '../support/stack';
import { Attempt, publishEvent, signatureValid } from './emit';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';

// Real-time retries and restarts take seconds; Jest ignores testTimeout inside a project entry (default 5 s).
jest.setTimeout(60_000);

/** Restarts, replicas and crashed claims: every delivery is sent, and never twice at once. */
describe('webhook delivery across restarts and replicas', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let nc: NatsConnection;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    nc = await connect({ servers: runState().natsUrl });
    stack = await webhookStack({
      services: [],
      env: { WEBHOOK_RETRY_SCHEDULE: '2,2' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await nc?.close();
  });
  beforeEach(() => {
    receiver.respond = () => 200;
  });

  async function endpoint(events = ['*']) {
    const m = await stack.merchant();
    const { key } = await stack.key([m]);
    const r = await stack.http('POST', '/v1/webhook-endpoint', { key, body: { url: receiver.url(`/${m}`), events } });
    expect(r.status).toBe(201);
    return { m, key, id: r.body.id as string, secret: r.body.secret as string };
  }

  it('a webhooks service restart in the middle of retries loses no delivery', async () => {
    const ep = await endpoint();
    receiver.failFirst(receiver.received.length + 1);
    const event = await publishEvent(nc, EventTypes.subscriptionRenewed, ep.m, { id: 'sub_1' });
    await until(
      () => receiver.of(event.id),
      (x) => x.length === 1,
    );
    // The first try failed; the second is due in 2 s. Stop the only webhooks replica before then.
    await stack.stopService('webhooks');
    await new Promise((r) => setTimeout(r, 2500));
    expect(receiver.of(event.id)).toHaveLength(1);
    await stack.startService('webhooks');
    const got = await until(
      () => receiver.of(event.id),
      (x) => x.length === 2,
    );
    expect(got.map((g) => g.status)).toEqual([500, 200]);
    expect(signatureValid(got[1].headers['webhook-signature'], got[1].body, ep.secret)).toBe(true);
    const log = await until(
      async () =>
        (await stack.http<Attempt[]>('GET', `/v1/webhook-endpoint/${ep.id}/deliveries`, { key: ep.key })).body,
      (l) => l[0]?.status === 'succeeded',
    );
    expect(log.map((a) => [a.attempt, a.status])).toEqual([
      [2, 'succeeded'],
      [1, 'failed'],
    ]);
  });

  it('events published while no webhooks replica runs are delivered once one starts (durable consumer)', async () => {
    const ep = await endpoint();
    await stack.stopService('webhooks');
    const events: EventEnvelope[] = [];
    for (let i = 0; i < 3; i++) events.push(await publishEvent(nc, EventTypes.invoicePaid, ep.m, { id: `inv_${i}` }));
    await stack.startService('webhooks');
    for (const e of events) {
      const got = await until(
        () => receiver.of(e.id),
        (x) => x.length > 0,
      );
      expect(got).toHaveLength(1);
    }
  });

  it('two webhooks replicas deliver each event exactly once to a healthy receiver', async () => {
    const ep = await endpoint();
    const first = stack.webhooks;
    await stack.startService('webhooks');
    expect(stack.services.get('webhooks')).toHaveLength(2);
    const events: EventEnvelope[] = [];
    for (let i = 0; i < 40; i++) {
      events.push(await publishEvent(nc, EventTypes.paymentCaptured, ep.m, { id: `pay_${i}` }));
    }
    await until(
      () => events.filter((e) => receiver.of(e.id).length > 0).length,
      (n) => n === events.length,
      20_000,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const counts = events.map((e) => receiver.of(e.id).length);
    expect(counts).toEqual(events.map(() => 1));
    const db = stack.webhooks.get(DataSource);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
       WHERE d.endpoint_id = $1 AND a.status = 'succeeded' AND a.attempt = 1`,
      [ep.id],
    );
    expect(n).toBe(40);
    await stack.stopReplica('webhooks', first);
  });

  it('a try claimed by a replica that then crashed is sent once its lease lapses, and only then', async () => {
    const ep = await endpoint();
    const db = stack.webhooks.get(DataSource);
    const eventId = uuidv7();
    const deliveryId = uuidv7();
    const body = JSON.stringify({
      id: eventId,
      type: 'payment.captured',
      createdAt: new Date().toISOString(),
      environment: 'sandbox',
      merchantCode: ep.m,
      data: {},
    });
    await db.query(
      `INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_code, environment, target, endpoint_id, url, body, status)
       VALUES ($1, $2, 'payment.captured', $3, 'sandbox', $4, $5, $6, $7, 'pending')`,
      [deliveryId, eventId, ep.m, `endpoint:${ep.id}`, ep.id, receiver.url(`/${ep.m}`), body],
    );
    // Claimed 2 s from now by a replica that died holding the lease.
    await db.query(
      `INSERT INTO webhook_attempts (id, delivery_id, attempt, status, due_at, claimed_until)
       VALUES ($1, $2, 1, 'pending', now(), now() + interval '2 seconds')`,
      [uuidv7(), deliveryId],
    );
    await new Promise((r) => setTimeout(r, 1200));
    expect(receiver.of(eventId)).toHaveLength(0);
    const got = await until(
      () => receiver.of(eventId),
      (x) => x.length > 0,
    );
    expect(got).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.of(eventId)).toHaveLength(1);
  });
});
