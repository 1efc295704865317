import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paymentBody } from '../payments/payments-fixtures';
import { queryRows } from '../support/db';
import { NatsCluster } from '../support/nats-cluster';
import { AppName, AppProcess, ensureBuild, ProcessSuite } from '../support/processes';
import { until, waitUntil } from '../support/wait';
import { selfSignedCert, WebhookReceiver } from '../support/webhook-receiver';
import { sandboxKey } from './drain-helpers';
import {
  LEASE_MS,
  lostEvents,
  paymentLoad,
  paymentProblems,
  renew,
  renewalProblems,
  RetryingClient,
  subscriptions,
  unpublished,
} from './failover-load';
import { ReadinessWatch } from './readiness-watch';

jest.setTimeout(240_000);

const APPS: AppName[] = ['gateway', 'payments', 'payment-links', 'billing', 'webhooks'];
const SERVICES: AppName[] = ['payments', 'payment-links', 'billing', 'webhooks'];

/**
 * The apps on a three-server NATS cluster (their NATS_URL lists all three) with the EVENTS stream at three
 * replicas. Under purchases, refunds and renewals, each retried with its Idempotency-Key until answered, the
 * server leading the webhooks service's consumer is SIGKILLed and its store deleted: a NATS pod rescheduled
 * without its volume. The apps go on through the other two; no command is lost or doubled, no event lost, every
 * webhook delivered.
 */
describe('a NATS server lost for good under load, real processes', () => {
  let cluster: NatsCluster;
  let suite: ProcessSuite;
  let receiver: WebhookReceiver;
  let apps: Record<AppName, AppProcess>;
  let caDir: string | undefined;

  beforeAll(async () => {
    ensureBuild();
    cluster = await NatsCluster.start();
    receiver = await WebhookReceiver.start();
    caDir = mkdtempSync(join(tmpdir(), 'nats-loss-'));
    const ca = join(caDir, 'receiver-ca.pem');
    writeFileSync(ca, selfSignedCert().cert);
    suite = await ProcessSuite.start({
      apps: APPS,
      env: {
        NATS_URL: cluster.url,
        EVENTS_STREAM_REPLICAS: '3',
        RENEWAL_POLL_MS: '0',
        RENEWAL_LEASE_MS: LEASE_MS,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        NODE_EXTRA_CA_CERTS: ca,
      },
    });
    // The services start side by side, the gateway once they run.
    const services = await Promise.all(SERVICES.map((a) => suite.startApp(a)));
    const gateway = await suite.startApp('gateway');
    apps = Object.fromEntries([...services, gateway].map((p) => [p.app, p])) as Record<AppName, AppProcess>;
  }, 240_000);

  afterAll(async () => {
    await suite?.stop();
    await receiver?.close();
    await cluster?.stop();
    if (caDir) rmSync(caDir, { recursive: true, force: true });
  }, 120_000);

  it('carries on through the other two servers: nothing lost or doubled, every webhook delivered', async () => {
    const shop = await sandboxKey(apps.gateway);
    const subscriber = await sandboxKey(apps.gateway);
    const shopper = new RetryingClient(() => apps.gateway.url, shop.key);
    const renewals = new RetryingClient(() => apps.gateway.url, subscriber.key);
    for (const client of [shopper, renewals]) {
      const ep = await client.post('/v1/webhook-endpoint', { url: receiver.url(), events: ['*'] }, Date.now() + 30_000);
      expect(ep.status).toBe(201);
    }
    const subs = await subscriptions(renewals, 6);

    // The stream has a copy on each server. The server killed leads the webhooks service's consumer: its pull
    // requests are lost with it, and deliveries wait until the consumer pulls again from the new leader.
    const before = await cluster.placement('EVENTS');
    expect(before.replicas).toHaveLength(2);
    const consumer = await cluster.placement('EVENTS', String(suite.env.WEBHOOK_CONSUMER_NAME));
    expect(consumer.replicas).toHaveLength(2);
    const victim = consumer.leader!;

    const watch = new ReadinessWatch(Object.values(apps));
    const load = paymentLoad(shopper, shop.merchantCode);
    try {
      await waitUntil('20 purchases answered', async () => load.ledger.purchases.size >= 20, 60_000);
      const renewing = renew(renewals);
      const killedAt = Date.now();
      await cluster.kill(victim, { deleteStore: true });
      const count = load.ledger.purchases.size;
      await waitUntil('20 more purchases answered', async () => load.ledger.purchases.size >= count + 20, 90_000);
      const ledger = await load.stop();
      expect(await renewing).toMatchObject({ status: 200 });

      const after = await cluster.placement('EVENTS');
      const outage = shopper.outageAfter(killedAt);
      process.stdout.write(
        `NATS server loss: ${ledger.purchases.size} purchases and ${ledger.refunds.size} refunds acknowledged, ` +
          `${subs.length} renewals; ${victim} killed (led the webhooks consumer; the stream: ${before.leader}, now ${after.leader}); ` +
          `first purchase answered ${outage.firstOkAfterMs} ms after the kill, ${outage.failed} attempts failed\n`,
      );
      expect(after.leader).toBeDefined();
      expect(after.leader).not.toBe(victim);
      expect(ledger.rejected).toEqual([]);

      // No command lost or doubled.
      expect(await paymentProblems(suite.databaseUrl('payments'), shop.merchantCode, ledger)).toEqual([]);
      expect(
        await renewalProblems(
          suite.databaseUrl('billing'),
          suite.databaseUrl('payments'),
          subscriber.merchantCode,
          subs,
        ),
      ).toEqual([]);

      // The outboxes drain and every event reaches the webhooks service, then the merchant's endpoint.
      const outboxes = APPS.filter((a) => a !== 'webhooks').map((a) => suite.databaseUrl(a));
      expect(
        await until(
          () => unpublished(outboxes),
          (n) => n === 0,
          60_000,
        ),
      ).toBe(0);
      const lost = () =>
        lostEvents([suite.databaseUrl('payments'), suite.databaseUrl('billing')], suite.databaseUrl('webhooks'));
      expect(await until(lost, (l) => l.length === 0, 30_000)).toEqual([]);
      const consumed = Date.now() - killedAt;
      const events = await queryRows<{ id: string }>(
        suite.databaseUrl('webhooks'),
        'SELECT id FROM webhook_events WHERE merchant_code = ANY($1)',
        [[shop.merchantCode, subscriber.merchantCode]],
      );
      expect(events.length).toBeGreaterThan(ledger.purchases.size);
      const undelivered = () => events.filter((e) => !receiver.of(e.id).some((r) => r.status === 200)).map((e) => e.id);
      expect(
        await until(
          async () => undelivered(),
          (u) => u.length === 0,
          60_000,
        ),
      ).toEqual([]);
      process.stdout.write(
        `NATS server loss: every event in the webhooks service ${consumed} ms, delivered ${Date.now() - killedAt} ms after the kill\n`,
      );

      // The apps stayed up and are ready; none was restarted.
      for (const app of Object.values(apps)) {
        const ready = await until(
          async () => watch.last(app.name)?.status,
          (status) => status === 200,
          30_000,
        );
        expect([app.name, ready, app.entry.exited]).toEqual([app.name, 200, false]);
      }
    } finally {
      await load.stop();
      await watch.stop();
    }
  });

  it('with every server gone the services answer not ready, and ready again by themselves once they are back', async () => {
    const shop = await sandboxKey(apps.gateway);
    const shopper = new RetryingClient(() => apps.gateway.url, shop.key);
    const watch = new ReadinessWatch(Object.values(apps));
    try {
      const goneAt = Date.now();
      for (const node of cluster.nodes) await cluster.kill(node.name, { deleteStore: false });
      for (const a of SERVICES) {
        await waitUntil(
          `${a} turns unready`,
          async () => (watch.last(a)?.at ?? 0) > goneAt && watch.last(a)?.status === 503,
          30_000,
        );
      }
      // The gateway stays ready (it answers the JSON 503 itself; docs/operations.md) and says NATS is down.
      await waitUntil(
        'the gateway says NATS is down',
        async () =>
          (watch.last('gateway')?.at ?? 0) > goneAt && /^down/.test(watch.last('gateway')?.body?.checks?.nats ?? ''),
        30_000,
      );
      expect(watch.unreadySince('gateway', goneAt)).toBe(false);

      // The servers come back: the two with their stores, the one lost earlier with an empty one.
      const backAt = Date.now();
      for (const node of cluster.nodes) cluster.restart(node.name);
      await waitUntil('JetStream answers again', () => cluster.jetStreamReady(), 60_000);
      for (const a of SERVICES) {
        await waitUntil(
          `${a} is ready again`,
          async () => (watch.last(a)?.at ?? 0) > backAt && watch.last(a)?.status === 200,
          60_000,
        );
      }
      process.stdout.write(`NATS back: every service ready ${Date.now() - backAt} ms after the servers restarted\n`);

      // Commands and events flow again through the same processes.
      const p = await shopper.post('/v1/payment/purchase', paymentBody(shop.merchantCode), Date.now() + 60_000);
      expect(p.status).toBe(200);
      const outboxes = APPS.filter((a) => a !== 'webhooks').map((a) => suite.databaseUrl(a));
      expect(
        await until(
          () => unpublished(outboxes),
          (n) => n === 0,
          60_000,
        ),
      ).toBe(0);
      const received = () =>
        queryRows(
          suite.databaseUrl('webhooks'),
          `SELECT id FROM webhook_events WHERE type = 'payment.captured' AND body LIKE $1`,
          [`%${p.body.id}%`],
        );
      // The webhooks service's pull consumer notices the lost pulls by their missed heartbeats and pulls again.
      expect(await until(received, (r) => r.length === 1, 90_000)).toHaveLength(1);
      process.stdout.write(
        `NATS back: the event reached the webhooks service ${Date.now() - backAt} ms after the restart\n`,
      );
      for (const app of Object.values(apps)) expect([app.name, app.entry.exited]).toEqual([app.name, false]);
    } finally {
      await watch.stop();
    }
  });
});
