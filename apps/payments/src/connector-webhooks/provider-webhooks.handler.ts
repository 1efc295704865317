import { MessagePattern } from '@nestjs/microservices';
import { ConnectorWebhookAnswer, ConnectorWebhookCommand, PaymentsExtrasSubjects } from '@app/contracts';
import { CommandBody, CommandHandler } from '@app/messaging';
import { ProviderWebhooks } from './provider-webhooks.service';

/** A provider's inbound webhook (keyless: the provider's signature, checked here, is the credential). */
@CommandHandler()
export class ProviderWebhooksHandler {
  constructor(private readonly webhooks: ProviderWebhooks) {}

  @MessagePattern(PaymentsExtrasSubjects.connectorWebhook)
  receive(@CommandBody() body: ConnectorWebhookCommand): Promise<ConnectorWebhookAnswer> {
    return this.webhooks.receive(body);
  }
}
