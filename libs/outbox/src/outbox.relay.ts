import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { JetStreamClient, PubAck } from 'nats';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ensureEventsStream, NatsClient } from '@app/messaging';
import { runStatement, statement } from '@app/database';
import { LOGGER, Metrics } from '@app/observability';
import { PollingLoop } from '@app/platform';

export const OUTBOX_OPTIONS = Symbol('OUTBOX_OPTIONS');
export interface OutboxOptions {
  pollMs: number;
  batchSize?: number;
  /** How long a claim is held before another relay may take the rows over. */
  leaseSeconds?: number;
}

interface ClaimedRow {
  id: string;
  type: string;
  envelope: string;
}

/** The oldest unpublished rows nobody holds, leased to this relay; answered in created order. */
const CLAIM = statement(
  'outbox_claim',
  `WITH claimed AS (
     UPDATE outbox SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM outbox
       WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
       ORDER BY created_at, id
       LIMIT $1
       FOR UPDATE SKIP LOCKED)
     RETURNING id, type, envelope::text AS envelope, created_at)
   SELECT id, type, envelope FROM claimed ORDER BY created_at, id`,
);
const MARK_PUBLISHED = statement(
  'outbox_mark_published',
  'UPDATE outbox SET published_at = now(), claimed_until = NULL, last_error = NULL WHERE id = ANY($1)',
);
const RELEASE = statement(
  'outbox_release',
  'UPDATE outbox SET claimed_until = NULL, last_error = $2 WHERE id = ANY($1)',
);

/**
 * Publishes outbox rows to JetStream. Rows are claimed with FOR UPDATE SKIP LOCKED and a short lease, so
 * concurrent relays (replicas) never publish the same row at the same time; publishing happens outside any
 * transaction (STYLE §9); the message id is the event id, so a re-publish after a crash is dropped by
 * JetStream's duplicate window. At-least-once. `attempts` counts claims.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;
  private js?: JetStreamClient;
  private streamReady = false;
  private kickTimer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly nats: NatsClient,
    private readonly metrics: Metrics,
    @Inject(OUTBOX_OPTIONS) private readonly options: OutboxOptions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.loop = new PollingLoop(
      async () => (await this.publishBatch()) >= this.batchSize(),
      options.pollMs,
      (e) => logger.warn({ err: e }, 'Outbox relay could not publish; will retry'),
    );
  }

  onApplicationBootstrap(): void {
    // Not awaited: a service starts (and answers commands) while NATS is still coming up.
    this.jetstream().catch((e: unknown) => this.logger.warn({ err: e }, 'EVENTS stream not ready yet'));
    this.loop.start();
  }

  /**
   * Stops before the database pool and NATS close (onApplicationShutdown). The commands have been answered by
   * now (the CommandServer drains in onModuleDestroy), so one last round sends what they committed instead of
   * leaving it to another replica's next poll or to this one's next start.
   */
  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.kickTimer);
    await this.loop.stop();
    if (!this.nats.current()) return;
    try {
      while ((await this.publishBatch()) >= this.batchSize());
    } catch (e) {
      this.logger.warn({ err: e }, 'Outbox relay could not publish before stopping; another relay will');
    }
  }

  kick(): void {
    this.loop.kick();
  }

  /** Called inside a transaction: give it a moment to commit before looking. */
  kickAfterCommit(): void {
    // One timer however many transactions commit meanwhile: under load the next round takes them all.
    if (this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      this.loop.kick();
    }, 5).unref();
  }

  /** One claim-publish-mark round; returns how many rows were published. */
  async publishBatch(): Promise<number> {
    const rows = await runStatement<ClaimedRow>(this.dataSource, CLAIM, [
      this.batchSize(),
      this.options.leaseSeconds ?? 30,
    ]);
    if (!rows.length) return 0;
    const js = await this.jetstream();
    // Published in order on one connection, acknowledged together: one round trip per batch, not per row.
    const results = await Promise.allSettled(rows.map((row) => publishRow(js, row)));
    const done: string[] = [];
    const rest: string[] = [];
    results.forEach((r, i) => (r.status === 'fulfilled' ? done : rest).push(rows[i].id));
    if (done.length) await runStatement(this.dataSource, MARK_PUBLISHED, [done]);
    this.metrics.eventsPublished(done.length);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) {
      // Release what was not published, so the next round (of any relay) retries it without waiting for the lease.
      await runStatement(this.dataSource, RELEASE, [rest, String((failure.reason as Error)?.message).slice(0, 500)]);
      throw failure.reason;
    }
    return rows.length;
  }

  private batchSize(): number {
    return this.options.batchSize ?? 100;
  }

  private async jetstream(): Promise<JetStreamClient> {
    const nc = await this.nats.get();
    if (!this.streamReady) {
      await ensureEventsStream(nc);
      this.streamReady = true;
    }
    this.js ??= nc.jetstream();
    return this.js;
  }
}

/** `msgID` is sent as the Nats-Msg-Id header: JetStream's duplicate window drops a second copy. */
function publishRow(js: JetStreamClient, row: ClaimedRow): Promise<PubAck> {
  return js.publish(row.type, Buffer.from(row.envelope), { msgID: row.id });
}
