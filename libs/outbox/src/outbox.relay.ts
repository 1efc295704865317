import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { headers as natsHeaders, JetStreamClient, PubAck } from 'nats';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ensureEventsStream, NatsClient } from '@app/messaging';
import { deferStatement, pipelinedTransaction, runStatement, statement } from '@app/database';
import { LOGGER, Metrics } from '@app/observability';
import { PollingLoop } from '@app/platform';

export const OUTBOX_OPTIONS = Symbol('OUTBOX_OPTIONS');
export interface OutboxOptions {
  pollMs: number;
  batchSize?: number;
}

interface PendingRow {
  id: string;
  type: string;
  envelope: string;
}

const CLAIM = statement(
  'outbox_claim',
  `SELECT id, type, envelope::text AS envelope FROM outbox
   WHERE published_at IS NULL
   ORDER BY created_at, id
   LIMIT $1
   FOR UPDATE SKIP LOCKED`,
);
const MARK_PUBLISHED = statement(
  'outbox_mark_published',
  'UPDATE outbox SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ANY($1)',
);
const RECORD_FAILURE = statement(
  'outbox_record_failure',
  'UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1)',
);

/**
 * Publishes outbox rows to JetStream. One round is one transaction: the oldest unpublished rows are locked
 * with FOR UPDATE SKIP LOCKED (so concurrent relays, one per replica, never take the same row and never wait
 * for each other), published in order and acknowledged together, and marked published in the same
 * transaction. If the relay dies mid-round, the locks go with its connection and the next round publishes
 * the rows again; the message id is the event id, so JetStream's duplicate window drops the second copy.
 * At-least-once. `attempts` counts publish attempts (a row published once by one relay reads 1).
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
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
      async () => (await this.publishBatch()) >= (options.batchSize ?? 100),
      options.pollMs,
      (e) => logger.warn({ err: e }, 'Outbox relay could not publish; will retry'),
    );
  }

  onApplicationBootstrap(): void {
    // Not awaited: a service starts (and answers commands) while NATS is still coming up.
    this.jetstream().catch((e: unknown) => this.logger.warn({ err: e }, 'EVENTS stream not ready yet'));
    this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
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

  /** One lock-publish-delete round; returns how many rows it published. */
  async publishBatch(): Promise<number> {
    // Reached before any row is locked: with NATS down the rows stay free for a relay that can publish.
    const js = await this.jetstream();
    let failure: unknown;
    const published = await pipelinedTransaction(this.dataSource, async (manager) => {
      const rows = await runStatement<PendingRow>(manager, CLAIM, [this.options.batchSize ?? 100]);
      if (!rows.length) return 0;
      // Sent in order on one connection and acknowledged together: one round trip per batch, not per row.
      const results = await Promise.allSettled(rows.map((row) => publishRow(js, row)));
      const done: string[] = [];
      const rest: string[] = [];
      results.forEach((r, i) => (r.status === 'fulfilled' ? done : rest).push(rows[i].id));
      if (done.length) await deferStatement(manager, MARK_PUBLISHED, [done]);
      failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason;
      if (failure) {
        await deferStatement(manager, RECORD_FAILURE, [rest, String((failure as Error)?.message).slice(0, 500)]);
      }
      return done.length;
    });
    this.metrics.eventsPublished(published);
    if (failure) throw failure;
    return published;
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

function publishRow(js: JetStreamClient, row: PendingRow): Promise<PubAck> {
  const h = natsHeaders();
  h.set('Nats-Msg-Id', row.id);
  return js.publish(row.type, Buffer.from(row.envelope), { msgID: row.id, headers: h });
}
