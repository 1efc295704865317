import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { EventEnvelope, WebhookEnvelope } from '@app/contracts';
import { LOGGER } from '@app/observability';
import { EventsRepository } from '../events/events.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { DeliveryTarget } from './webhook-delivery.types';
import { WebhookDeliveryLoop } from './webhook-delivery.loop';

/**
 * The exact bytes a receiver gets: the envelope in its documented key order, then the provider's names of the
 * same values, which its plugins read (`event`, `created_at`; `payment_code`, `order_code`, `payment_id` in
 * the data of a payment event). Nothing of the envelope is left out.
 */
export const webhookBody = (e: WebhookEnvelope): string =>
  JSON.stringify({
    id: e.id,
    type: e.type,
    createdAt: e.createdAt,
    environment: e.environment,
    merchantCode: e.merchantCode,
    data: e.type.startsWith('payment.') ? withProviderPaymentNames(e.data) : e.data,
    event: e.type,
    created_at: e.createdAt,
  });

function withProviderPaymentNames(data: object): object {
  const p = data as { id?: unknown; paymentCode?: unknown; orderCode?: unknown };
  return { ...data, payment_code: p.paymentCode, order_code: p.orderCode, payment_id: p.id };
}

/**
 * Turns one event into deliveries: one per endpoint of the merchant and environment subscribed to its type,
 * plus one to `data.webhookUrl` when the object carries one; the event itself is kept for `GET /v1/events`.
 * Idempotent on the event id.
 */
@Injectable()
export class WebhookFanout {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly deliveryLoop: WebhookDeliveryLoop,
    private readonly events: EventsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Returns how many deliveries were created (0 for a redelivered event). `traceParent` (null with tracing
   * off) is the context the event was consumed in, kept on its deliveries: each try's span links to it.
   */
  accept(event: EventEnvelope, traceParent: string | null = null): Promise<number> {
    return this.acceptAll([event], [traceParent]);
  }

  /**
   * `accept` for events that arrived together: one lookup of their endpoints and one statement queueing all
   * their deliveries. Returns the deliveries created.
   */
  async acceptAll(events: EventEnvelope[], traceParents: Array<string | null> = []): Promise<number> {
    const targets = await this.deliveries.subscribedEndpoints(events);
    const bodies = events.map(webhookBody);
    await this.events.record(events.flatMap((e, i) => (targets[i] ? [{ envelope: e, body: bodies[i] }] : [])));
    const queued = events.flatMap((envelope, i) => {
      const to = deliveryTargets(envelope, targets[i]);
      return to.length ? [{ envelope, body: bodies[i], targets: to, traceParent: traceParents[i] ?? null }] : [];
    });
    const created = await this.deliveries.queueDeliveries(queued);
    if (created) {
      this.logger.debug({ events: events.length, deliveries: created }, 'Webhook deliveries queued');
      this.deliveryLoop.kick();
    }
    return created;
  }
}

/**
 * Where an event goes: its subscribed endpoints and its `data.webhookUrl`. `subscribed` is undefined for a
 * merchant this service does not know: the gateway never named it (another deployment or a test stack sharing
 * the NATS server), so nothing is delivered.
 */
function deliveryTargets(event: EventEnvelope, subscribed: DeliveryTarget[] | undefined): DeliveryTarget[] {
  if (!subscribed) return [];
  const webhookUrl = (event.data as { webhookUrl?: unknown } | null)?.webhookUrl;
  if (typeof webhookUrl === 'string' && webhookUrl) {
    return [...subscribed, { target: `url:${webhookUrl}`, endpointId: null, url: webhookUrl }];
  }
  return subscribed;
}
