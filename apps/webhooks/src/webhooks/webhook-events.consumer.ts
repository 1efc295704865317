import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { NatsClient } from '@app/messaging';
import { LOGGER } from '@app/observability';
import { WebhookFanout } from './webhook-fanout.service';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';
import { DurableEventConsumer } from '../events/durable-consumer';

/**
 * The webhooks service's subscriber to every domain event: a durable pull consumer shared by all its replicas
 * (each event is handled by one), turning events into webhook deliveries before acknowledging them.
 */
@Injectable()
export class WebhookEventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly consumer: DurableEventConsumer;

  constructor(
    nats: NatsClient,
    fanout: WebhookFanout,
    @Inject(WEBHOOK_OPTIONS) options: WebhookOptions,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.consumer = new DurableEventConsumer(
      nats,
      { durable: options.consumerName, stream: options.stream },
      (event, traceParent) => fanout.accept(event, traceParent),
      logger,
      (events, traceParents) => fanout.acceptAll(events, traceParents),
    );
  }

  onApplicationBootstrap(): void {
    this.consumer.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.consumer.stop();
  }
}
