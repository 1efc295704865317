import { PgPair } from '../support/pg-pair';
import { AppProcess, ensureBuild, ProcessSuite } from '../support/processes';
import { TcpProxy } from '../support/tcp-proxy';
import { until, waitUntil } from '../support/wait';
import { sandboxKey } from './drain-helpers';
import {
  eventsFor,
  failures,
  firstNewPurchase,
  GATEWAY_KEY_LEASE_MS,
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

jest.setTimeout(300_000);

const DATABASES = {
  gateway: 'gateway',
  payments: 'payments',
  'payment-links': 'payment_links',
  billing: 'billing',
  webhooks: 'webhooks',
} as const;
type App = keyof typeof DATABASES;
const APPS = Object.keys(DATABASES) as App[];
const SERVICES: App[] = ['payments', 'payment-links', 'billing', 'webhooks'];

/**
 * Every app's database on one PostgreSQL primary with a synchronous standby, reached through a TCP proxy that
 * plays CloudNativePG's `-rw` Service. Under purchases, refunds and renewals, each retried with its
 * Idempotency-Key until answered, the primary is SIGKILLed for good, the standby promoted and the proxy moved
 * to it. Nothing a client was told is missing, nothing is charged twice, every event reaches the webhooks
 * service, the outboxes drain, and the services turn unready and ready again by themselves.
 */
describe('a PostgreSQL primary lost for good under load, real processes', () => {
  let pg: PgPair;
  let proxy: TcpProxy;
  let suite: ProcessSuite;
  let apps: Record<App, AppProcess>;

  beforeAll(async () => {
    ensureBuild();
    pg = await PgPair.start();
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: pg.primary.port });
    const databaseUrls = Object.fromEntries(
      APPS.map((a) => [a, `postgres://postgres@127.0.0.1:${proxy.port}/${DATABASES[a]}`]),
    );
    // Each app creates and migrates its own database as it starts (MIGRATIONS=on-start).
    suite = await ProcessSuite.start({
      apps: APPS,
      databaseUrls,
      env: { RENEWAL_POLL_MS: '0', RENEWAL_LEASE_MS: LEASE_MS },
    });
    // The services start side by side, the gateway once they run.
    const services = await Promise.all(SERVICES.map((a) => suite.startApp(a)));
    const gateway = await suite.startApp('gateway');
    apps = Object.fromEntries([...services, gateway].map((p) => [p.app, p])) as Record<App, AppProcess>;
  }, 240_000);

  afterAll(async () => {
    await suite?.stop();
    await proxy?.close();
    await pg?.stop();
  }, 120_000);

  const onNewPrimary = (app: App): string => pg.standby.url(DATABASES[app]);
  /** Fails the wait at once, with the end of its log, when an app has ended (it answers no readiness at all). */
  const running = (a: App): true => {
    if (apps[a].entry.exited) throw new Error(`${a} exited (${apps[a].entry.exit}):\n${suite.tail(a)}`);
    return true;
  };

  it('loses, doubles and strands nothing; readiness follows the database', async () => {
    const shop = await sandboxKey(apps.gateway);
    const subscriber = await sandboxKey(apps.gateway);
    const shopper = new RetryingClient(() => apps.gateway.url, shop.key);
    const renewals = new RetryingClient(() => apps.gateway.url, subscriber.key);
    const subs = await subscriptions(renewals, 6);

    const watch = new ReadinessWatch(Object.values(apps));
    const load = paymentLoad(shopper, shop.merchantCode);
    try {
      await waitUntil('20 purchases answered', async () => load.ledger.purchases.size >= 20, 60_000);
      // An advance whose key the gateway could not free (its database gone) answers once the key's lease lapses.
      const renewing = renew(renewals, GATEWAY_KEY_LEASE_MS + 60_000);
      // Every commit acknowledged so far waited for the standby.
      expect(await pg.syncState()).toBe('sync');
      expect((await pg.query(pg.primary, 'SHOW synchronous_commit'))[0]).toEqual({ synchronous_commit: 'on' });

      const killedAt = Date.now();
      await pg.killPrimary();
      const newWork = firstNewPurchase(shopper, shop.merchantCode, load.ledger);
      // The operator's part: see the primary gone (here: once every service answers unready), promote the
      // standby, move the Service to it.
      for (const a of SERVICES) {
        await waitUntil(
          `${a} turns unready`,
          async () => running(a) && (watch.last(a)?.at ?? 0) > killedAt && watch.last(a)?.status === 503,
          60_000,
        );
      }
      await waitUntil(
        'the gateway says its database is down',
        async () =>
          (watch.last('gateway')?.at ?? 0) > killedAt &&
          /^down/.test(watch.last('gateway')?.body?.checks?.database ?? ''),
        30_000,
      );
      const promoteMs = pg.promote();
      proxy.retarget({ host: '127.0.0.1', port: pg.standby.port });
      const switchedAt = Date.now();

      const readyAgainAt: Partial<Record<App, number>> = {};
      for (const a of SERVICES) {
        await waitUntil(
          `${a} is ready again`,
          async () => running(a) && (watch.last(a)?.at ?? 0) > switchedAt && watch.last(a)?.status === 200,
          60_000,
        );
        readyAgainAt[a] = watch.last(a)!.at;
      }
      const newPurchaseMs = await newWork;
      const before = load.ledger.purchases.size;
      await waitUntil('20 more purchases answered', async () => load.ledger.purchases.size >= before + 20, 60_000);
      const ledger = await load.stop();
      const renewed = await renewing;
      const renewedMs = renewals.attempts[renewals.attempts.length - 1].end - killedAt;

      const outage = shopper.outageAfter(killedAt);
      const switchMs = switchedAt - killedAt;
      // When the last service answered its first 503 after the kill, and its first 200 after the switch.
      const unreadyMs = Math.max(
        ...SERVICES.map((a) => (watch.since(a, killedAt).find((r) => r.status === 503)?.at ?? Infinity) - killedAt),
      );
      const readyMs = Math.max(...SERVICES.map((a) => readyAgainAt[a]! - switchedAt));
      process.stdout.write(
        `database failover: ${ledger.purchases.size} purchases and ${ledger.refunds.size} refunds acknowledged, ` +
          `${subs.length} renewals; every service unready ${unreadyMs} ms after the kill, ready again ${readyMs} ` +
          `ms after the switch; kill to switch ${switchMs} ms (promote ${promoteMs} ms); a new purchase ` +
          `answered ${newPurchaseMs} ms after the kill (${newPurchaseMs - switchMs} ms after the switch); the ` +
          `retries of requests in flight answered by ${outage.lastFailureAfterMs} ms after the kill; failed ` +
          `attempts: ${JSON.stringify(failures(shopper))}; the renewals' clock advance answered ${renewed.status} ` +
          `${renewedMs} ms after the kill, failed attempts: ${JSON.stringify(failures(renewals))}\n`,
      );
      expect([renewed.status, renewed.body?.error]).toEqual([200, undefined]);
      expect(ledger.rejected).toEqual([]);

      // Nothing acknowledged is missing, nothing is doubled.
      expect(await paymentProblems(onNewPrimary('payments'), shop.merchantCode, ledger)).toEqual([]);
      expect(
        await renewalProblems(onNewPrimary('billing'), onNewPrimary('payments'), subscriber.merchantCode, subs),
      ).toEqual([]);

      // The outboxes drain and every event they held reached the webhooks service.
      const outboxes = APPS.filter((a) => a !== 'webhooks').map(onNewPrimary);
      expect(
        await until(
          () => unpublished(outboxes),
          (n) => n === 0,
          60_000,
        ),
      ).toBe(0);
      const lost = () => lostEvents([onNewPrimary('payments'), onNewPrimary('billing')], onNewPrimary('webhooks'));
      expect(await until(lost, (l) => l.length === 0, 30_000)).toEqual([]);
      const ids = [...ledger.purchases.keys()];
      expect(await eventsFor(onNewPrimary('payments'), 'payment.captured', ids)).toEqual([]);
      expect(await eventsFor(onNewPrimary('payments'), 'payment.refunded', [...ledger.refunds.keys()])).toEqual([]);

      // Readiness: the services were unready while their database was gone and came back on their own; the
      // gateway stayed ready throughout (it answers the JSON 503 itself; docs/operations.md), saying its database
      // was down.
      for (const a of SERVICES) {
        expect([a, watch.unreadySince(a, killedAt), watch.unreadySince(a, readyAgainAt[a]!)]).toEqual([a, true, false]);
      }
      expect(watch.unreadySince('gateway', killedAt)).toBe(false);
      // No process was restarted.
      for (const app of Object.values(apps)) expect([app.name, app.entry.exited]).toEqual([app.name, false]);
    } finally {
      await load.stop();
      await watch.stop();
    }
  });
});
