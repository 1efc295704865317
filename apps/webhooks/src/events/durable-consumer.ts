import { AckPolicy, ConsumerConfig, ConsumerMessages, DeliverPolicy, JsMsg, NatsConnection, nanos } from 'nats';
import { Logger } from 'pino';
import { EventEnvelope, EVENTS_STREAM } from '@app/contracts';
import {
  ensureEventsStream,
  EventsStreamLimits,
  messagingAttributes,
  NatsClient,
  traceContextOf,
} from '@app/messaging';
import { inSpan, linkTo, SpanKind, traceParentOf, tracingOn } from '@app/observability';
import { parseEventEnvelope, PoisonEventError } from './event-envelope';
import { TurnBatcher } from './turn-batcher';

export interface DurableConsumerOptions {
  /** Durable name: every replica of the consuming app uses the same one, and each message goes to one of them. */
  durable: string;
  /** Only these subjects (e.g. `['subscription.>']`); the whole stream when absent. */
  filterSubjects?: string[];
  /** Unacknowledged messages the server hands out at once, over all replicas. */
  maxAckPending?: number;
  /** How long a message may stay unacknowledged before the server redelivers it. */
  ackWaitMs?: number;
  /** The EVENTS stream's limits, applied when the consumer creates or checks the stream. */
  stream?: EventsStreamLimits;
}

/**
 * Handles one event. `traceParent` (null with tracing off) names the context it was consumed in, for work the
 * handler leaves to later (a webhook delivery links to it).
 */
export type EventHandler = (event: EventEnvelope, traceParent: string | null) => Promise<unknown>;
/** Handles events that arrived together, in order; if it throws, each event is retried alone with the handler. */
export type BatchEventHandler = (events: EventEnvelope[], traceParents: Array<string | null>) => Promise<unknown>;

const RETRY_START_MS = 1_000;
const NAK_DELAY_MS = 2_000;
/**
 * How long one pull request lives. nats.js re-pulls after two missed heartbeats (half of this each) and, when it
 * cannot read the consumer's info after a reconnect (a NATS server lost, a consumer leader being elected), waits
 * this long before trying again: its 30 s default stalled deliveries for a minute after the loss of one server
 * (test/faults/nats-server-loss.e2e-spec.ts). An idle replica re-pulls once per period.
 */
const PULL_EXPIRES_MS = 5_000;

/** The consumer's configuration: durable, explicit ack, from the start of the stream. */
export function durableConsumerConfig(o: DurableConsumerOptions): Partial<ConsumerConfig> {
  return {
    durable_name: o.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    max_ack_pending: o.maxAckPending ?? 1000,
    ack_wait: nanos(o.ackWaitMs ?? 30_000),
    max_deliver: -1,
    ...(o.filterSubjects?.length === 1 ? { filter_subject: o.filterSubjects[0] } : {}),
    ...((o.filterSubjects?.length ?? 0) > 1 ? { filter_subjects: o.filterSubjects } : {}),
  };
}

/** Creates the durable consumer on EVENTS when missing (replicas race here: the loser finds it made). */
export async function ensureDurableConsumer(nc: NatsConnection, o: DurableConsumerOptions): Promise<void> {
  const jsm = await nc.jetstreamManager();
  try {
    await jsm.consumers.info(EVENTS_STREAM, o.durable);
    return;
  } catch (e) {
    if (!/consumer not found/i.test((e as Error).message)) throw e;
  }
  try {
    await jsm.consumers.add(EVENTS_STREAM, durableConsumerConfig(o));
  } catch (e) {
    if (!/already (exists|in use)/i.test((e as Error).message)) throw e;
  }
}

/**
 * The internal-subscriber pattern (docs/events.md): a durable JetStream pull consumer on the EVENTS stream
 * with explicit acks. A message is acknowledged only after the handler has committed its work, so a crash
 * means a redelivery, never a loss; handlers are therefore idempotent on the event id. An envelope that cannot
 * be parsed is terminated (no redelivery); a handler error is nak'ed and retried shortly.
 */
export class DurableEventConsumer {
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private starting?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly nats: NatsClient,
    private readonly options: DurableConsumerOptions,
    private readonly handler: EventHandler,
    private readonly logger: Logger,
    private readonly batchHandler?: BatchEventHandler,
  ) {}

  /** Starts in the background and keeps trying until NATS is reachable; app start never waits on it. */
  start(): void {
    this.starting = this.startWithRetry();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting;
    if (this.messages) await this.messages.close().catch(() => undefined);
    await this.loop;
  }

  private async startWithRetry(): Promise<void> {
    for (let wait = RETRY_START_MS; !this.stopped; wait = Math.min(wait * 2, 30_000)) {
      try {
        const nc = await this.nats.get();
        const warning = await ensureEventsStream(nc, this.options.stream);
        if (warning) this.logger.warn({ limits: this.options.stream }, warning);
        await ensureDurableConsumer(nc, this.options);
        if (this.stopped) return;
        const consumer = await nc.jetstream().consumers.get(EVENTS_STREAM, this.options.durable);
        this.messages = await consumer.consume({ max_messages: 100, expires: PULL_EXPIRES_MS });
        this.loop = this.run(this.messages).catch((e: Error) =>
          this.logger.error({ err: e, consumer: this.options.durable }, 'EVENTS consumer stopped'),
        );
        this.logger.info({ consumer: this.options.durable }, 'Consuming the EVENTS stream');
        return;
      } catch (e) {
        this.logger.warn({ err: e, consumer: this.options.durable }, 'Cannot consume the EVENTS stream yet; retrying');
        await new Promise((r) => setTimeout(r, wait).unref());
      }
    }
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    // Messages that arrive together are handled (and acknowledged) together.
    const batcher = new TurnBatcher<JsMsg>((batch) => this.handleBatch(batch));
    for await (const m of messages) {
      // Stopping: hand what is still buffered straight back to the server for another replica.
      if (this.stopped) {
        m.nak();
        continue;
      }
      batcher.add(m);
    }
    await batcher.drain();
  }

  /**
   * With tracing on, a batch is handled in one span: the child of its event's publish when it holds one event,
   * else a trace of its own linked to each event's publish. Each event is handed the traceparent it was
   * consumed in: that span's when it came alone, its own publish's when it came in a batch (the batch's span
   * is a trace of its own, not the event's).
   */
  private handleBatch(batch: JsMsg[]): Promise<void> {
    if (!tracingOn()) return this.handleBatchIn(batch);
    const subject = batch.length === 1 ? batch[0].subject : EVENTS_STREAM;
    return inSpan(
      `${subject} process`,
      {
        kind: SpanKind.CONSUMER,
        attributes: { ...messagingAttributes(subject, 'process'), 'messaging.batch.message_count': batch.length },
        ...(batch.length === 1
          ? { parent: traceContextOf(batch[0]) }
          : { root: true, links: batch.flatMap((m) => linkTo(traceContextOf(m))) }),
      },
      () =>
        this.handleBatchIn(
          batch,
          batch.length === 1 ? [traceParentOf()] : batch.map((m) => traceParentOf(traceContextOf(m))),
        ),
    );
  }

  private async handleBatchIn(batch: JsMsg[], traceParents?: Array<string | null>): Promise<void> {
    const parsed: Array<{ m: JsMsg; event: EventEnvelope; traceParent: string | null }> = [];
    for (const [i, m] of batch.entries()) {
      try {
        parsed.push({ m, event: parseEventEnvelope(m.data, m.subject), traceParent: traceParents?.[i] ?? null });
      } catch (e) {
        if (e instanceof PoisonEventError) {
          this.logger.warn({ subject: m.subject, seq: m.seq, reason: e.message }, 'Dropping an invalid event');
          m.term(e.message);
        } else {
          this.logger.warn({ err: e, subject: m.subject, seq: m.seq }, 'Event not read; redelivering');
          m.nak(NAK_DELAY_MS);
        }
      }
    }
    if (this.batchHandler && parsed.length > 1) {
      try {
        await this.batchHandler(
          parsed.map((p) => p.event),
          parsed.map((p) => p.traceParent),
        );
        parsed.forEach((p) => p.m.ack());
        return;
      } catch (e) {
        this.logger.warn({ err: e, events: parsed.length }, 'Event batch not handled; handling its events one by one');
      }
    }
    for (const { m, event, traceParent } of parsed) await this.handle(m, event, traceParent);
  }

  private async handle(m: JsMsg, event: EventEnvelope, traceParent: string | null): Promise<void> {
    try {
      await this.handler(event, traceParent);
      m.ack();
    } catch (e) {
      this.logger.warn({ err: e, eventId: event.id, eventType: event.type }, 'Event not handled; redelivering');
      m.nak(NAK_DELAY_MS);
    }
  }
}
