import { Inject, Injectable } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { JetStreamClient, PubAck } from 'nats';
import { DataSource } from 'typeorm';
import { ensureEventsStream, EventsStreamLimits, messagingAttributes, NatsClient, traceHeaders } from '@app/messaging';
import {
  activeTraceContext,
  contextFromTraceParent,
  inSpan,
  linkActiveSpan,
  linkTo,
  Metrics,
  SpanKind,
  tracingOn,
} from '@app/observability';
import { PeriodicLoop, repeatDuring } from '@app/platform';
import { claimOutbox, markPublished, releaseOutbox, renewOutbox } from './outbox.repository';

export const OUTBOX_OPTIONS = Symbol('OUTBOX_OPTIONS');
/**
 * How long a claim lasts unless renewed. A live relay renews it every third of it while its batch is out, so
 * the lease only matters when the relay died: its rows wait at most this long (plus one poll of another
 * relay) instead of being lost.
 */
export const OUTBOX_LEASE_SECONDS = 5;
/**
 * Rows per claim. Each claim walks the unpublished index from its start, past the entries of rows published
 * since the table was last vacuumed, so under load fewer, larger claims cost less per event.
 */
export const OUTBOX_BATCH = 500;

export interface OutboxOptions {
  pollMs: number;
  batchSize?: number;
  /** How long a claim is held, unless renewed, before another relay may take the rows over. */
  leaseSeconds?: number;
  /** The EVENTS stream's limits, applied when the relay creates or checks the stream (defaults when absent). */
  stream?: EventsStreamLimits;
}

/** An outbox row on its way to JetStream: its event id, subject and envelope (JSON text). */
export interface OutboxEvent {
  id: string;
  type: string;
  envelope: string;
  /** With tracing on: the context of the work that committed it (its publish span is a child of that). */
  trace?: Context;
}

/** A claimed row: its event and the traceparent stored by the work that wrote it (NULL with tracing off). */
type ClaimedRow = OutboxEvent & { traceParent: string | null };

/**
 * Publishes outbox rows to JetStream, at least once, in two ways:
 * - Directly: a row written inside a pipelined transaction is inserted already leased to this relay
 *   (`OutboxWriter`), and once that transaction commits the relay publishes it from memory and marks it, with no
 *   claim: one statement per batch of events instead of two, and no poll between the commit and the publish.
 * - By claim: rows nobody holds (written elsewhere, released after a failed publish, or left by a relay that
 *   died, once their lease ran out) are claimed with FOR UPDATE SKIP LOCKED and a short lease. With tracing on
 *   each is published in the trace of the work that wrote it (the traceparent stored on the row).
 * Either way a live relay renews the lease while its batch is out, so concurrent relays (replicas) never publish
 * the same row at the same time and the rows of a relay that died are taken over within one lease; publishing
 * happens outside any transaction; the message id is the event id, so a re-publish after a crash is
 * dropped by JetStream's duplicate window. `attempts` counts claims (a directly published row was born with 1).
 * Claims run on the loop: every OUTBOX_POLL_MS, and at once when a writer kicks it after its commit.
 */
@Injectable()
export class OutboxRelayLoop extends PeriodicLoop {
  readonly loopName = 'outbox_relay';
  private js?: JetStreamClient;
  private streamReady = false;
  private kickTimer?: NodeJS.Timeout;
  /** Committed rows waiting for this turn's direct publish, and the direct batches still out. */
  private committed: OutboxEvent[] = [];
  private readonly direct = new Set<Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly nats: NatsClient,
    private readonly metrics: Metrics,
    @Inject(OUTBOX_OPTIONS) private readonly options: OutboxOptions,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.options.pollMs;
  }

  protected async work(): Promise<boolean> {
    return (await this.publishBatch()) >= this.batchSize();
  }

  override onApplicationBootstrap(): void {
    // Not awaited: a service starts (and answers commands) while NATS is still coming up.
    this.jetstream().catch((e: unknown) => this.log.warn({ err: e }, 'EVENTS stream not ready yet'));
    this.startLoop();
  }

  /**
   * Stops before the database pool and NATS close (onApplicationShutdown). The commands have been answered by
   * now (the CommandServer drains in onModuleDestroy), so one last round sends what they committed instead of
   * leaving it to another replica's next poll or to this one's next start.
   */
  override async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.kickTimer);
    await this.stopLoop();
    this.flushCommitted();
    await Promise.all([...this.direct]);
    if (!this.nats.current()) return;
    try {
      while ((await this.publishBatch()) >= this.batchSize());
    } catch (e) {
      this.log.warn({ err: e }, 'Outbox relay could not publish before stopping; another relay will');
    }
  }

  /**
   * Whether a row written now may be born leased to this relay for a direct publish: only while JetStream is
   * known to be reachable (otherwise the row waits, unleased, for a claim).
   */
  publishesDirectly(): boolean {
    return this.js !== undefined && this.nats.current() !== undefined;
  }

  /**
   * A row born leased to this relay whose transaction has committed: published in this turn's batch with
   * the others that committed meanwhile. A failure releases what did not go out, for the next claim.
   */
  publishCommitted(row: OutboxEvent): void {
    const trace = activeTraceContext();
    this.committed.push(trace ? { ...row, trace } : row);
    if (this.committed.length === 1) setImmediate(() => this.flushCommitted());
  }

  private flushCommitted(): void {
    if (!this.committed.length) return;
    const rows = this.committed;
    this.committed = [];
    const batch = this.publishRows(this.js!, rows).catch((e: unknown) =>
      this.log.warn({ err: e }, 'Outbox relay could not publish committed events; the next claim will'),
    );
    this.direct.add(batch);
    void batch.finally(() => this.direct.delete(batch));
  }

  /** Called inside a transaction: give it a moment to commit before looking. */
  kickAfterCommit(): void {
    // One timer however many transactions commit meanwhile: under load the next round takes them all.
    if (this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      this.kick();
    }, 5).unref();
  }

  /** One claim-publish-mark round; returns how many rows were published. */
  async publishBatch(): Promise<number> {
    // NATS first: rows are claimed only when they can go out at once.
    const js = await this.jetstream();
    // Leases and marks commit without waiting for the WAL flush: lost in a database crash, they only make an
    // event go out again, which JetStream's duplicate window (message id = event id) drops.
    const rows = await claimOutbox<ClaimedRow>(this.dataSource, this.batchSize(), this.leaseSeconds());
    if (!rows.length) return 0;
    await this.publishRows(js, tracingOn() ? withStoredTraces(rows) : rows);
    return rows.length;
  }

  /** Publishes rows this relay holds, marks those that went out and releases the rest (then throws). */
  private async publishRows(js: JetStreamClient, rows: OutboxEvent[]): Promise<void> {
    // Published in order on one connection, acknowledged together: one round trip per batch, not per row.
    const results = await this.holding(
      rows.map((r) => r.id),
      () => Promise.allSettled(rows.map((row) => publishRow(js, row))),
    );
    const done: string[] = [];
    const rest: string[] = [];
    results.forEach((r, i) => (r.status === 'fulfilled' ? done : rest).push(rows[i].id));
    if (done.length) await markPublished(this.dataSource, done);
    this.metrics.eventsPublished(results.flatMap((r, i) => (r.status === 'fulfilled' ? [rows[i].type] : [])));
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) {
      // Release what was not published, so the next round (of any relay) retries it without waiting for the lease.
      await releaseOutbox(this.dataSource, rest, String((failure.reason as Error)?.message).slice(0, 500));
      throw failure.reason;
    }
  }

  /** Runs `work` while renewing the lease on `ids` every third of it; the last renewal is over when it returns. */
  private async holding<T>(ids: string[], work: () => Promise<T>): Promise<T> {
    let renewal: Promise<unknown> = Promise.resolve();
    const renew = () => {
      renewal = renewal
        .then(() => renewOutbox(this.dataSource, ids, this.leaseSeconds()))
        .catch((e: unknown) => this.log.warn({ err: e }, 'Outbox lease not renewed'));
    };
    try {
      return await repeatDuring((this.leaseSeconds() * 1000) / 3, renew, work);
    } finally {
      await renewal;
    }
  }

  leaseSeconds(): number {
    return this.options.leaseSeconds ?? OUTBOX_LEASE_SECONDS;
  }

  private batchSize(): number {
    return this.options.batchSize ?? OUTBOX_BATCH;
  }

  private async jetstream(): Promise<JetStreamClient> {
    const nc = await this.nats.get();
    if (!this.streamReady) {
      const warning = await ensureEventsStream(nc, this.options.stream);
      if (warning) this.log.warn({ limits: this.options.stream }, warning);
      this.streamReady = true;
    }
    this.js ??= nc.jetstream();
    return this.js;
  }
}

/**
 * Claimed rows with the context each one's writer stored: its publish is a child of that work (so the event's
 * consumers join the trace of the request that committed it), and the relay's run links to each. A row with
 * no stored context, or a malformed one, is published in the run's trace.
 */
function withStoredTraces(rows: ClaimedRow[]): OutboxEvent[] {
  const events = rows.map(({ traceParent, ...row }) => {
    const trace = contextFromTraceParent(traceParent);
    return trace ? { ...row, trace } : row;
  });
  linkActiveSpan(events.flatMap((e) => linkTo(e.trace)));
  return events;
}

/**
 * `msgID` is sent as the Nats-Msg-Id header: JetStream's duplicate window drops a second copy. With tracing on
 * each publish is a span (a child of the work that committed the row: of its transaction for a direct
 * publish, of the context stored on the row for a claimed one, else of the relay's run) whose context the
 * message carries in its headers to the consumers.
 */
function publishRow(js: JetStreamClient, row: OutboxEvent): Promise<PubAck> {
  if (!tracingOn()) return js.publish(row.type, Buffer.from(row.envelope), { msgID: row.id });
  const attributes = { ...messagingAttributes(row.type, 'publish'), 'messaging.message.id': row.id };
  return inSpan(`${row.type} publish`, { kind: SpanKind.PRODUCER, parent: row.trace, attributes }, () =>
    js.publish(row.type, Buffer.from(row.envelope), { msgID: row.id, headers: traceHeaders() }),
  );
}
