import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { EventEnvelope, WebhookEnvelope } from '@app/contracts';
import { LOGGER } from '@app/observability';
import { DeliveryTarget, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryLoop } from './webhook-delivery.loop';

/** The exact bytes a receiver gets, in the envelope's documented key order. */
export const webhookBody = (e: WebhookEnvelope): string =>
  JSON.stringify({
    id: e.id,
    type: e.type,
    createdAt: e.createdAt,
    environment: e.environment,
    merchantCode: e.merchantCode,
    data: e.data,
  });

/**
 * Turns one event into deliveries: one per endpoint of the merchant and environment subscribed to its type,
 * plus one to `data.webhookUrl` when the object carries one. Idempotent on the event id.
 */
@Injectable()
export class WebhookFanout {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly deliveryLoop: WebhookDeliveryLoop,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Returns how many deliveries were created (0 for a redelivered event). */
  accept(event: EventEnvelope): Promise<number> {
    return this.acceptAll([event]);
  }

  /** `accept` for events that arrived together: one lookup for all of them. Returns the deliveries created. */
  async acceptAll(events: EventEnvelope[]): Promise<number> {
    const targets = await this.deliveries.subscribedEndpoints(events);
    let created = 0;
    for (let i = 0; i < events.length; i++) created += await this.deliver(events[i], targets[i]);
    return created;
  }

  /**
   * `targets` is undefined for a merchant this gateway does not know: it cannot have endpoints or keys here
   * (another deployment or a test stack sharing the NATS server), so nothing is delivered.
   */
  private async deliver(event: EventEnvelope, targets: DeliveryTarget[] | undefined): Promise<number> {
    if (!targets) return 0;
    const webhookUrl = (event.data as { webhookUrl?: unknown } | null)?.webhookUrl;
    if (typeof webhookUrl === 'string' && webhookUrl) {
      targets.push({ target: `url:${webhookUrl}`, endpointId: null, url: webhookUrl });
    }
    if (!targets.length) return 0;
    const created = await this.deliveries.insertDeliveries(event, webhookBody(event), targets);
    if (created.length) {
      this.logger.debug(
        { eventId: event.id, eventType: event.type, deliveries: created.length },
        'Webhook deliveries queued',
      );
      this.deliveryLoop.kick();
    }
    return created.length;
  }
}
