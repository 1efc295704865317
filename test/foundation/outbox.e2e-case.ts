import { INestApplication } from '@nestjs/common';
import { AckPolicy, connect, DeliverPolicy, NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { EventEnvelope, EVENTS_STREAM, EventTypes } from '@app/contracts';
import { inTransaction } from '@app/database';
import { ensureEventsStream, NatsClient } from '@app/messaging';
import { uuidv7 } from '@app/clock';
import { OUTBOX_RETENTION_MS, OutboxPruneLoop, OutboxRelayLoop, OutboxWriter } from '@app/outbox';
import { runState } from '../support/run-state';
import { standaloneRelay } from '../support/standalone-relay';
import { TestStack } from '../support/stack';
import { until } from '../support/wait';

/** Every EVENTS message whose envelope belongs to `merchantCode`. */
async function published(nc: NatsConnection, merchantCode: string): Promise<EventEnvelope[]> {
  await ensureEventsStream(nc);
  const jsm = await nc.jetstreamManager();
  const name = `t${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
  await jsm.consumers.add(EVENTS_STREAM, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    filter_subject: EventTypes.paymentPending,
  });
  const consumer = await nc.jetstream().consumers.get(EVENTS_STREAM, name);
  const out: EventEnvelope[] = [];
  const pending = (await consumer.info()).num_pending;
  if (pending > 0) {
    const messages = await consumer.fetch({ max_messages: pending, expires: 2000 });
    for await (const m of messages) {
      const envelope = m.json<EventEnvelope>();
      if (envelope.merchantCode === merchantCode) out.push(envelope);
      if (m.info.pending === 0) break;
    }
  }
  await jsm.consumers.delete(EVENTS_STREAM, name);
  return out;
}

describe('transactional outbox', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let replicaA: INestApplication;

  beforeAll(async () => {
    stack = await TestStack.start({ services: [], gateway: false });
    replicaA = await stack.startService('payments');
    await stack.startService('payments'); // a second replica: a second relay on the same outbox
    nc = await connect({ servers: runState().natsUrl });
  });
  afterAll(async () => {
    await nc.close();
    await stack.stop();
  });

  const write = (merchantCode: string, n: number, rollback = false) => {
    const db = replicaA.get(DataSource);
    const writer = replicaA.get(OutboxWriter);
    return db
      .transaction(async (m) => {
        for (let i = 0; i < n; i++) {
          await writer.add(m, EventTypes.paymentPending, { merchantCode, environment: 'sandbox' }, { i }, new Date());
        }
        if (rollback) throw new Error('rolled back on purpose');
      })
      .catch((e: Error) => {
        if (!rollback) throw e;
      });
  };

  it('a row written in a rolled-back transaction is never published', async () => {
    const merchant = `rb${Date.now()}`;
    await write(merchant, 3, true);
    const committedMarker = `ok${Date.now()}`;
    await write(committedMarker, 1);
    // Once a later committed event is out, the rolled-back ones would have been too.
    await until(
      () => published(nc, committedMarker),
      (e) => e.length === 1,
    );
    expect(await published(nc, merchant)).toEqual([]);
    const rows = await replicaA
      .get(DataSource)
      .query("SELECT count(*)::int AS n FROM outbox WHERE envelope->>'merchantCode' = $1", [merchant]);
    expect(rows[0].n).toBe(0);
  });

  it('committed rows are published exactly once with two relays running at once', async () => {
    const merchant = `two${Date.now()}`;
    await Promise.all([write(merchant, 100), write(merchant, 100)]);
    const db = replicaA.get(DataSource);
    type Row = { id: string; attempts: number; published_at: Date | null };
    const rows = await until<Row[]>(
      () => db.query("SELECT id, attempts, published_at FROM outbox WHERE envelope->>'merchantCode' = $1", [merchant]),
      (r) => r.length === 200 && r.every((x) => x.published_at),
    );
    expect(rows).toHaveLength(200);
    // attempts counts claims: no row was ever claimed by both relays.
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    const events = await published(nc, merchant);
    expect(events).toHaveLength(200);
    expect(new Set(events.map((e) => e.id)).size).toBe(200);
    expect(new Set(events.map((e) => e.id))).toEqual(new Set(rows.map((r) => r.id)));
    expect(events[0]).toMatchObject({ type: 'payment.pending', environment: 'sandbox', merchantCode: merchant });
  });

  it('the relay claims with FOR UPDATE SKIP LOCKED: a locked row is skipped, not waited for', async () => {
    const merchant = `lock${Date.now()}`;
    const db = replicaA.get(DataSource);
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const writer = replicaA.get(OutboxWriter);
      await writer.add(
        runner.manager,
        EventTypes.paymentPending,
        { merchantCode: merchant, environment: 'sandbox' },
        {},
        new Date(),
      );
      await runner.commitTransaction();
      await runner.startTransaction();
      await runner.query("SELECT id FROM outbox WHERE envelope->>'merchantCode' = $1 FOR UPDATE", [merchant]);
      const relay = replicaA.get(OutboxRelayLoop);
      const started = Date.now();
      await relay.publishBatch();
      expect(Date.now() - started).toBeLessThan(2000);
      const row = await db.query("SELECT published_at FROM outbox WHERE envelope->>'merchantCode' = $1", [merchant]);
      expect(row[0].published_at).toBeNull();
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    await until(
      () => published(nc, merchant),
      (e) => e.length === 1,
    );
  });

  it('published rows older than the retention are pruned; unpublished and recent ones stay', async () => {
    const db = replicaA.get(DataSource);
    const now = Date.now();
    const old = now - OUTBOX_RETENTION_MS - 60_000;
    const rows = {
      oldPublished: uuidv7(old),
      oldUnpublished: uuidv7(old + 1),
      recentPublished: uuidv7(now - 1000),
    };
    const insert = (id: string, publishedAt: Date | null) =>
      db.query(
        "INSERT INTO outbox (id, type, envelope, published_at, claimed_until) VALUES ($1, 'payment.pending', '{}', $2, $3)",
        [
          id,
          publishedAt,
          // The unpublished one is held by a lease far in the future, so no relay publishes it meanwhile.
          publishedAt ? null : new Date(now + 3_600_000),
        ],
      );
    await insert(rows.oldPublished, new Date(old));
    await insert(rows.oldUnpublished, null);
    await insert(rows.recentPublished, new Date(now - 1000));

    const pruner = replicaA.get(OutboxPruneLoop);
    for (let n = await pruner.pruneOnce(now); n > 0; n = await pruner.pruneOnce(now));
    const left: Array<{ id: string }> = await db.query('SELECT id FROM outbox WHERE id = ANY($1)', [
      Object.values(rows),
    ]);
    expect(left.map((r) => r.id).sort()).toEqual([rows.oldUnpublished, rows.recentPublished].sort());
    await db.query('DELETE FROM outbox WHERE id = $1', [rows.oldUnpublished]);
  });

  describe('direct publish after a pipelined transaction', () => {
    type Row = { attempts: number; published_at: Date | null; claimed_until: Date | null };
    const rowsOf = (merchant: string): Promise<Row[]> =>
      replicaA
        .get(DataSource)
        .query("SELECT attempts, published_at, claimed_until FROM outbox WHERE envelope->>'merchantCode' = $1", [
          merchant,
        ]);

    /** A writer whose relay never polls (pollMs 0: it runs only when kicked), on replica A's connections. */
    async function quietWriter(leaseSeconds?: number) {
      const relay = await standaloneRelay(
        replicaA.get(DataSource),
        replicaA.get(NatsClient),
        { pollMs: 0, leaseSeconds },
        'outbox_direct_test',
      );
      relay.onApplicationBootstrap();
      await until(
        async () => relay.publishesDirectly(),
        (ready) => ready,
      );
      return { relay, writer: new OutboxWriter(relay) };
    }

    const writeIn = (writer: OutboxWriter, merchantCode: string, n: number) =>
      inTransaction(replicaA.get(DataSource), async (m) => {
        for (let i = 0; i < n; i++) {
          await writer.add(m, EventTypes.paymentPending, { merchantCode, environment: 'sandbox' }, { i }, new Date());
        }
      });

    it('are published by the writing process as soon as they commit, with no claim by any relay', async () => {
      const { relay, writer } = await quietWriter();
      try {
        const merchant = `direct${Date.now()}`;
        await writeIn(writer, merchant, 20);
        // Born leased (5 s) to a relay that never polls: only its direct publish can send them this soon, and
        // the two replicas' relays, polling meanwhile, cannot claim them (attempts stays 1).
        const rows = await until(
          () => rowsOf(merchant),
          (r) => r.length === 20 && r.every((x) => x.published_at),
          3_000,
        );
        expect(rows.every((r) => r.published_at && r.attempts === 1 && r.claimed_until === null)).toBe(true);
        const events = await until(
          () => published(nc, merchant),
          (e) => e.length === 20,
        );
        expect(events.map((e) => (e.data as { i: number }).i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      } finally {
        await relay.beforeApplicationShutdown();
      }
    });

    it('a row whose writer died before publishing is held for its lease, then claimed by another relay', async () => {
      const { relay, writer } = await quietWriter(1);
      // The process "dies" right after the commit: its direct publish never happens.
      jest.spyOn(relay, 'publishCommitted').mockImplementation(() => undefined);
      try {
        const merchant = `orphan${Date.now()}`;
        await writeIn(writer, merchant, 3);
        const held = await rowsOf(merchant);
        expect(held.every((r) => r.published_at === null && r.attempts === 1 && r.claimed_until)).toBe(true);
        const rows = await until(
          () => rowsOf(merchant),
          (r) => r.every((x) => x.published_at),
          10_000,
        );
        // Born with one claim, taken over with a second once the 1 s lease ran out.
        expect(rows.map((r) => r.attempts)).toEqual([2, 2, 2]);
        expect(
          await until(
            () => published(nc, merchant),
            (e) => e.length === 3,
          ),
        ).toHaveLength(3);
      } finally {
        await relay.beforeApplicationShutdown();
      }
    });
  });
});
