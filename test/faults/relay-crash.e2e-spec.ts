import { connect, NatsConnection, Subscription } from 'nats';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { EventTypes } from '@app/contracts';
import { NatsClient } from '@app/messaging';
import { OUTBOX_LEASE_SECONDS } from '@app/outbox';
import { AppProcess, ensureBuild, ProcessSuite } from '../support/processes';
import { runState } from '../support/run-state';
import { standaloneRelay } from '../support/standalone-relay';
import { TcpProxy } from '../support/tcp-proxy';
import { sleep, waitUntil } from '../support/wait';

const ROWS = 50;
const POLL_MS = 50;
/** docs/operations.md, "Shutdown and crash behaviour": the lease, one poll of a surviving relay, and up to 1.45 s to publish. */
const WORST_CASE_MS = OUTBOX_LEASE_SECONDS * 1000 + POLL_MS + 1_450;
const TYPE = EventTypes.paymentPending;

/** Outbox rows as OutboxWriter writes them, for one merchant, answered by id. */
async function insertEvents(db: Client, merchantCode: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => uuidv7());
  const envelopes = ids.map((id) =>
    JSON.stringify({
      id,
      type: TYPE,
      createdAt: new Date().toISOString(),
      environment: 'sandbox',
      merchantCode,
      data: {},
    }),
  );
  await db.query('INSERT INTO outbox (id, type, envelope) SELECT * FROM unnest($1::uuid[], $2::text[], $3::json[])', [
    ids,
    ids.map(() => TYPE),
    envelopes,
  ]);
  return ids;
}

async function count(db: Client, sql: string, ids: string[]): Promise<number> {
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM outbox WHERE id = ANY($1) AND ${sql}`, [ids]);
  return rows[0].n;
}

/** The ids of the events that reached NATS on TYPE, as they arrive. */
function collect(nc: NatsConnection): { ids: Set<string>; sub: Subscription } {
  const ids = new Set<string>();
  const sub = nc.subscribe(TYPE, { callback: (_e, m) => ids.add(m.json<{ id: string }>().id) });
  return { ids, sub };
}

/** An outbox relay of this process on `dbUrl`, as a service runs it. */
async function startRelay(dbUrl: string, natsUrl: string, leaseSeconds?: number) {
  const dataSource = await new DataSource({ type: 'postgres', url: dbUrl }).initialize();
  const nats = new NatsClient({ url: natsUrl, name: 'test-relay' });
  const relay = await standaloneRelay(dataSource, nats, { pollMs: POLL_MS, leaseSeconds });
  relay.onApplicationBootstrap();
  return {
    async stop() {
      await relay.beforeApplicationShutdown();
      await nats.onApplicationShutdown();
      await dataSource.destroy();
    },
  };
}

describe('outbox relay crash: claimed rows are published on time by another relay, real processes', () => {
  let suite: ProcessSuite;
  let proxy: TcpProxy;
  let db: Client;
  let nc: NatsConnection;

  beforeAll(async () => {
    ensureBuild();
    const nats = new URL(runState().natsUrl);
    proxy = await TcpProxy.start({ host: nats.hostname, port: Number(nats.port) });
    suite = await ProcessSuite.start({ apps: ['payments'], env: { OUTBOX_POLL_MS: String(POLL_MS) } });
    nc = await connect({ servers: runState().natsUrl });
    // Migrates the database, so each test can run alone.
    const first = await suite.startApp('payments', { name: 'migrate' });
    first.entry.child.kill('SIGTERM');
    await first.ended;
    db = new Client({ connectionString: suite.databaseUrl('payments') });
    await db.connect();
  }, 300_000);
  afterAll(async () => {
    await nc?.close();
    await db?.end();
    await suite?.stop();
    await proxy?.close();
  }, 60_000);

  it(`SIGKILL of a payments process holding ${ROWS} claimed rows: all published within ${WORST_CASE_MS} ms`, async () => {
    // The process talks to NATS through the proxy, so its publishes can be stalled while it holds the rows.
    const holder: AppProcess = await suite.startApp('payments', {
      env: { NATS_URL: `nats://127.0.0.1:${proxy.port}` },
    });
    const events = collect(nc);
    // Its relay is up and the EVENTS stream known before the broker stalls.
    const warm = await insertEvents(db, 'crash-warm', 1);
    await waitUntil(
      'the first event is published',
      async () => (await count(db, 'published_at IS NOT NULL', warm)) === 1,
    );

    proxy.pause();
    const ids = await insertEvents(db, 'crash', ROWS);
    await waitUntil(
      `the process holds all ${ROWS} rows`,
      async () => (await count(db, 'published_at IS NULL AND claimed_until > now()', ids)) === ROWS,
      10_000,
    );
    const survivor = await startRelay(suite.databaseUrl('payments'), runState().natsUrl);
    try {
      holder.entry.child.kill('SIGKILL');
      const killed = Date.now();
      await holder.ended;
      await waitUntil(
        'every row is published',
        async () => (await count(db, 'published_at IS NOT NULL', ids)) === ROWS,
        WORST_CASE_MS + 10_000,
      );
      const elapsed = Date.now() - killed;
      await waitUntil('every event reached NATS', async () => ids.every((id) => events.ids.has(id)), 5_000);
      process.stdout.write(`relay crash: ${ROWS} claimed rows published ${elapsed} ms after SIGKILL\n`);
      expect(elapsed).toBeLessThan(WORST_CASE_MS);
    } finally {
      events.sub.unsubscribe();
      await survivor.stop();
    }
  }, 180_000);

  it('a live relay keeps its rows however long publishing takes: it renews the lease while the batch is out', async () => {
    proxy.resume();
    const slow = await startRelay(suite.databaseUrl('payments'), `nats://127.0.0.1:${proxy.port}`, 1);
    try {
      const warm = await insertEvents(db, 'renew-warm', 1);
      await waitUntil(
        'the first event is published',
        async () => (await count(db, 'published_at IS NOT NULL', warm)) === 1,
      );
      proxy.pause();
      const ids = await insertEvents(db, 'renew', 10);
      await waitUntil('the relay holds the rows', async () => (await count(db, 'claimed_until > now()', ids)) === 10);
      // Three leases later the rows are still held (not up for another relay to claim), still unpublished.
      await sleep(3_000);
      expect(await count(db, 'published_at IS NULL AND claimed_until > now()', ids)).toBe(10);
      expect(await count(db, 'attempts = 1', ids)).toBe(10);
      proxy.resume();
      await waitUntil('the rows are published', async () => (await count(db, 'published_at IS NOT NULL', ids)) === 10);
    } finally {
      proxy.resume();
      await slow.stop();
    }
  }, 120_000);
});
