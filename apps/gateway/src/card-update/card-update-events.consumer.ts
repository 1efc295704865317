import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AckPolicy, ConsumerMessages, DeliverPolicy, JsMsg, nanos } from 'nats';
import { Logger } from 'pino';
import { EVENTS_STREAM, EventEnvelope, EventTypes } from '@app/contracts';
import { NatsClient } from '@app/messaging';
import { LOGGER } from '@app/observability';
import { CardUpdateMail } from './card-update-mail';

/** The name of the gateway's durable consumer of the events that may email a customer a card-update link. */
export const CARD_UPDATE_CONSUMER = Symbol('CARD_UPDATE_CONSUMER');
// Filtered here rather than by the consumer: a consumer with several subject filters needs NATS 2.10.
const SUBJECTS: readonly string[] = [EventTypes.subscriptionPastDue, EventTypes.paymentMethodExpiring];

/**
 * Reads `subscription.past_due` and `payment_method.expiring` (the rest is acknowledged unread) from the EVENTS stream (published by billing's
 * outbox after its commit) and hands each to CardUpdateMail; a message is acknowledged once handled, so a
 * crash redelivers it, and the link's unique event id keeps a redelivery from emailing twice.
 */
@Injectable()
export class CardUpdateEventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private starting?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly nats: NatsClient,
    private readonly mail: CardUpdateMail,
    @Inject(CARD_UPDATE_CONSUMER) private readonly durable: string,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.starting = this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.starting;
    if (this.messages) await this.messages.close().catch(() => undefined);
    await this.loop;
  }

  private async start(): Promise<void> {
    for (let wait = 1_000; !this.stopped; wait = Math.min(wait * 2, 30_000)) {
      try {
        const nc = await this.nats.get();
        const jsm = await nc.jetstreamManager();
        // The services make the stream, with the deployment's replicas and limits: the gateway only reads it
        // (a stream made or updated here would take the default limits, one replica). Not there yet: retry.
        await jsm.streams.info(EVENTS_STREAM);
        await jsm.consumers
          .add(EVENTS_STREAM, {
            durable_name: this.durable,
            ack_policy: AckPolicy.Explicit,
            deliver_policy: DeliverPolicy.New,
            ack_wait: nanos(30_000),
            max_deliver: -1,
          })
          .catch((e: Error) => {
            if (!/already (exists|in use)/i.test(e.message)) throw e;
          });
        if (this.stopped) return;
        const consumer = await nc.jetstream().consumers.get(EVENTS_STREAM, this.durable);
        this.messages = await consumer.consume({ max_messages: 20 });
        this.loop = this.run(this.messages);
        return;
      } catch (e) {
        this.logger.warn({ err: e }, 'Card-update emails cannot read the EVENTS stream yet; retrying');
        await new Promise((r) => setTimeout(r, wait).unref());
      }
    }
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    for await (const m of messages) await this.handle(m);
  }

  private async handle(m: JsMsg): Promise<void> {
    let event: EventEnvelope;
    try {
      event = JSON.parse(Buffer.from(m.data).toString('utf8')) as EventEnvelope;
    } catch {
      m.term();
      return;
    }
    if (!SUBJECTS.includes(event.type)) {
      m.ack();
      return;
    }
    try {
      await this.mail.onEvent(event);
      m.ack();
    } catch (e) {
      this.logger.warn({ err: e, eventId: event.id }, 'A card-update email failed; retrying');
      m.nak(2_000);
    }
  }
}
