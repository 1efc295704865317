import { randomBytes } from 'node:crypto';
import { PgRoundTrips } from '../support/pg-round-trips';
import { runState } from '../support/run-state';
import { queryRows } from '../support/db';
import { TestStack } from '../support/stack';
import { sleep } from '../support/wait';
import { PaymentsClient, sandboxMerchant } from './payments-fixtures';

/**
 * Round trips to PostgreSQL of one card purchase, counted on the wire by a proxy (test/support/pg-round-trips.ts),
 * per database, over the whole purchase: the gateway's answer and what follows it (the event's publish mark,
 * the webhooks service storing the event). Purchases go one at a time, so none shares a group commit. A change
 * that adds a round trip or a request fails here; one that removes some lowers these maxima
 * (docs/performance.md, "Round trips per purchase").
 *
 * Payments: 4 round trips (reserve; the sandbox acquirer's ledger; record with the event; the publish mark),
 * each a pipelined transaction, holding 19 requests (every statement, BEGIN and COMMIT is sent with its own
 * Sync). Webhooks: the subscribed endpoints, then the event's insert. The gateway: none (the key is cached).
 */
const MAX_ROUND_TRIPS: Record<string, number> = { gateway: 0, payments: 4, webhooks: 2 };
const MAX_REQUESTS: Record<string, number> = { gateway: 0, payments: 19, webhooks: 2 };

const APPS = ['gateway', 'payments', 'payment_links', 'billing', 'webhooks'] as const;
const VARIABLES: Record<(typeof APPS)[number], string> = {
  gateway: 'GATEWAY_DATABASE_URL',
  payments: 'PAYMENTS_DATABASE_URL',
  payment_links: 'PAYMENT_LINKS_DATABASE_URL',
  billing: 'BILLING_DATABASE_URL',
  webhooks: 'WEBHOOKS_DATABASE_URL',
};

describe('round trips to PostgreSQL per card purchase', () => {
  let proxy: PgRoundTrips;
  let stack: TestStack;
  let m: PaymentsClient;
  const names: Record<string, string> = {};

  beforeAll(async () => {
    const { runId, pgBase } = runState();
    const target = new URL(pgBase);
    proxy = await PgRoundTrips.start({ host: target.hostname, port: Number(target.port || 5432) });
    const prefix = `t_${runId}_rt${randomBytes(4).toString('hex')}`;
    const env: Record<string, string> = {
      // The background loops off or rare, so that what the proxy counts is the purchases'.
      OUTBOX_POLL_MS: '60000',
      WEBHOOK_DISPATCH_POLL_MS: '60000',
      RECOVERY_SWEEP_MS: '0',
      HOLD_EXPIRY_SWEEP_MS: '0',
      THREEDS_EXPIRY_SWEEP_MS: '0',
    };
    for (const app of APPS) {
      names[app] = `${prefix}_${app}`;
      env[VARIABLES[app]] = proxy.urlOf(names[app]);
    }
    [stack, m] = await TestStack.startWith(sandboxMerchant, { env });
  });
  afterAll(async () => {
    await stack?.stop();
    await proxy?.close();
  });

  /**
   * Waits for a purchase's follow-ups: every event of the payments outbox published and stored by the webhooks
   * service (read on connections of their own, not through the proxy), then no round trip for `quietMs`.
   */
  async function settled(quietMs = 300): Promise<void> {
    const { pgBase } = runState();
    for (let tries = 0; ; tries++) {
      const [outbox] = await queryRows<{ events: string; unpublished: string }>(
        `${pgBase}/${names.payments}`,
        'SELECT count(*) AS events, count(*) FILTER (WHERE published_at IS NULL) AS unpublished FROM outbox',
      );
      const [stored] = await queryRows<{ n: string }>(
        `${pgBase}/${names.webhooks}`,
        'SELECT count(*) AS n FROM webhook_events',
      );
      if (outbox.unpublished === '0' && stored.n === outbox.events) break;
      if (tries > 200) throw new Error(`events not settled: ${JSON.stringify({ outbox, stored })}`);
      await sleep(50);
    }
    let last = JSON.stringify([...proxy.snapshot()]);
    for (let quietFor = 0; quietFor < quietMs;) {
      await sleep(50);
      const now = JSON.stringify([...proxy.snapshot()]);
      quietFor = now === last ? quietFor + 50 : 0;
      last = now;
    }
  }

  it('a card purchase makes at most the round trips of today, per database', async () => {
    // The first purchases fill the caches (the key, the merchant's connections) and prepare the statements.
    for (let i = 0; i < 3; i++) expect((await m.purchase()).status).toBe(200);
    await settled();

    const roundTrips: Record<string, number>[] = [];
    const requests: Record<string, number>[] = [];
    const byApp = (counted: Record<string, number>) =>
      Object.fromEntries(APPS.map((a) => [a, counted[names[a]] ?? 0]).filter(([, n]) => n));
    for (let i = 0; i < 5; i++) {
      const before = proxy.snapshot();
      const requestsBefore = proxy.snapshot('syncs');
      const r = await m.purchase();
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('captured');
      await settled();
      roundTrips.push(byApp(proxy.since(before)));
      requests.push(byApp(proxy.since(requestsBefore, 'syncs')));
    }
    // The proxy saw the purchase's writes at all (else the maxima below would hold for nothing).
    for (const counted of roundTrips) expect(counted.payments).toBeGreaterThan(0);
    // The cheapest of the five, per database: a cache that expired (the key's and the merchant's connections'
    // 5 s) adds a lookup to some purchase, never to all of them.
    const least = (all: Record<string, number>[]) =>
      Object.fromEntries(APPS.map((a) => [a, Math.min(...all.map((c) => c[a] ?? 0))]));
    const cheapest = { roundTrips: least(roundTrips), requests: least(requests) };
    const allowed = {
      roundTrips: Object.fromEntries(APPS.map((a) => [a, MAX_ROUND_TRIPS[a] ?? 0])),
      requests: Object.fromEntries(APPS.map((a) => [a, MAX_REQUESTS[a] ?? 0])),
    };
    const over = (what: 'roundTrips' | 'requests') =>
      Object.fromEntries(APPS.filter((a) => cheapest[what][a] > allowed[what][a]).map((a) => [a, cheapest[what][a]]));
    expect(over('roundTrips')).toEqual({});
    expect(over('requests')).toEqual({});
  });
});
