import { Clock, uuidv7 } from '@app/clock';
import {
  CallerContext,
  WEBHOOK_PING_EVENT,
  WebhookDeliveryResponse,
  WebhookEndpointIdCommand,
  WebhookEnvelope,
  WebhookPingData,
} from '@app/contracts';
import { SealedUseCase, UseCase } from '@app/idempotency';
import { traceParentOf } from '@app/observability';
import { EndpointChecks } from './endpoint-checks';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryLoop } from './webhook-delivery.loop';
import { webhookBody } from './webhook-fanout.service';
import { toDeliveryView } from './webhook-views';

/**
 * POST /v1/webhook-endpoint/{id}/test: queues a signed `ping` to the endpoint through the normal delivery path;
 * answers its first try.
 */
@UseCase({
  operation: 'webhook_endpoint.test',
  idempotency: 'sealed',
  request: ({ id }: WebhookEndpointIdCommand) => ({ id }),
})
export class TestEndpointUseCase extends SealedUseCase<WebhookEndpointIdCommand, WebhookDeliveryResponse> {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly checks: EndpointChecks,
    private readonly deliveryLoop: WebhookDeliveryLoop,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(caller: CallerContext, { id }: WebhookEndpointIdCommand): Promise<WebhookDeliveryResponse> {
    const endpoint = await this.checks.existing(caller, id);
    const ping: WebhookEnvelope<WebhookPingData> = {
      id: uuidv7(),
      type: WEBHOOK_PING_EVENT,
      createdAt: this.clock.now(caller).toISOString(),
      environment: caller.environment,
      merchantCode: caller.merchantCode,
      data: { endpointId: endpoint.id, message: 'Test event from the webhook settings' },
    };
    // Its tries link to this request's trace.
    const [attempt] = await this.deliveries.insertDeliveries(
      ping,
      webhookBody(ping),
      [{ target: `endpoint:${endpoint.id}`, endpointId: endpoint.id, url: endpoint.url }],
      traceParentOf(),
    );
    this.deliveryLoop.kick();
    return toDeliveryView(attempt);
  }
}
