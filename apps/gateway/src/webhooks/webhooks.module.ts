import { EventsController } from './events.controller';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookSecretController } from './webhook-secret.controller';

/** The webhook and event routes: thin forwarders to the webhooks service. */
export const webhookControllers = [WebhookEndpointsController, WebhookSecretController, EventsController];
