import { Module } from '@nestjs/common';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { EventsController } from './events.controller';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookSecretController } from './webhook-secret.controller';

/** The webhook and event routes: thin forwarders to the webhooks service. */
@Module({
  imports: [SandboxClockModule],
  controllers: [WebhookEndpointsController, WebhookSecretController, EventsController],
})
export class WebhooksModule {}
