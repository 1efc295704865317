import { CallerContext, ResendWebhookDeliveryCommand, WebhookDeliveryResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { SealedUseCase, UseCase } from '@app/idempotency';
import { UUID } from '../events/list-query';
import { EndpointChecks } from './endpoint-checks';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryLoop } from './webhook-delivery.loop';
import { toDeliveryView } from './webhook-views';

/**
 * POST /v1/webhook-endpoint/{id}/deliveries/{deliveryId}/resend: sends a dead or failed delivery of the endpoint
 * again (same body, same Webhook-Id); answers the try. 409 while the endpoint is disabled or once it succeeded.
 */
@UseCase({
  operation: 'webhook_delivery.resend',
  idempotency: 'sealed',
  request: ({ id, deliveryId }: ResendWebhookDeliveryCommand) => ({ id, deliveryId }),
})
export class ResendDeliveryUseCase extends SealedUseCase<ResendWebhookDeliveryCommand, WebhookDeliveryResponse> {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly checks: EndpointChecks,
    private readonly deliveryLoop: WebhookDeliveryLoop,
  ) {
    super();
  }

  protected async execute(
    caller: CallerContext,
    { id, deliveryId }: ResendWebhookDeliveryCommand,
  ): Promise<WebhookDeliveryResponse> {
    const endpoint = await this.checks.existing(caller, id);
    if (endpoint.disabled) throw DomainError.invalidState('The webhook endpoint is disabled; enable it first');
    const attempt = UUID.test(deliveryId) ? await this.deliveries.resend(endpoint.id, deliveryId) : undefined;
    if (!attempt) throw DomainError.notFound('delivery', 'deliveryId');
    if (attempt === 'succeeded') throw DomainError.invalidState('The delivery already succeeded');
    this.deliveryLoop.kick();
    return toDeliveryView(attempt);
  }
}
