import { Provider } from '@nestjs/common';
import { backlogGaugesProvider } from '@app/database';
import { eventsStreamLimits } from '@app/messaging';
import { GatewayConfig } from '../config';
import { EventRetentionLoop } from '../events/event-retention.loop';
import { EventsController } from '../events/events.controller';
import { EventsRepository } from '../events/events.repository';
import { WebhookEventRecord } from '../events/webhook-event.entity';
import { WebhookEventsConsumer } from '../events/webhook-events.consumer';
import { WebhookAttempt, WebhookDelivery } from './webhook-delivery.entity';
import { WEBHOOK_BACKLOG, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryLoop } from './webhook-delivery.loop';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookFanout } from './webhook-fanout.service';
import { WebhookSecret } from './webhook-secret.entity';
import { WebhookSecretController } from './webhook-secret.controller';
import { WebhookSender } from './webhook-sender';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';
import { WebhookSecretCipher } from './webhook-secret-cipher';

/** Wiring of the webhooks context into the gateway module (entities go to the gateway DataSource). */
export const webhookEntities = [WebhookEndpoint, WebhookSecret, WebhookDelivery, WebhookAttempt, WebhookEventRecord];
export const webhookControllers = [WebhookEndpointsController, WebhookSecretController, EventsController];

export function webhookProviders(config: GatewayConfig, extraCa?: string): Provider[] {
  const options: WebhookOptions = {
    allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
    maxEndpoints: config.WEBHOOK_MAX_ENDPOINTS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    pollMs: config.WEBHOOK_DISPATCH_POLL_MS,
    consumerName: config.WEBHOOK_CONSUMER_NAME ?? 'gateway-webhooks',
    stream: eventsStreamLimits(config),
    extraCa,
  };
  return [
    { provide: WEBHOOK_OPTIONS, useValue: options },
    { provide: WebhookSecretCipher, useValue: WebhookSecretCipher.fromConfig(config) },
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookSender,
    WebhookDeliveryLoop,
    WebhookFanout,
    WebhookEndpointsService,
    WebhookEventsConsumer,
    EventsRepository,
    EventRetentionLoop,
    backlogGaugesProvider({
      statement: WEBHOOK_BACKLOG,
      count: { name: 'webhook_attempts_due', help: 'Webhook tries that are due and not yet sent' },
      age: {
        name: 'webhook_oldest_due_age_seconds',
        help: 'Seconds since the earliest unsent webhook try fell due (0 when none waits)',
      },
    }),
  ];
}
