import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  ResendWebhookDeliveryCommand,
  WebhookDeliveriesCommand,
  WebhookDeliveryResponse,
  WebhookEndpointIdCommand,
  WebhooksSubjects,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { ResendDeliveryUseCase } from './resend-delivery.use-case';
import { TestEndpointUseCase } from './test-endpoint.use-case';
import { WebhookQueries } from './webhook-queries';

/** An endpoint's delivery log, a resend of one delivery, and a test ping (/v1/webhook-endpoint/{id}/…). */
@CommandHandler()
export class WebhookDeliveriesHandler {
  constructor(
    private readonly resendUseCase: ResendDeliveryUseCase,
    private readonly testUseCase: TestEndpointUseCase,
    private readonly queries: WebhookQueries,
  ) {}

  @MessagePattern(WebhooksSubjects.listDeliveries)
  deliveries(
    @Caller() ctx: CallerContext,
    @CommandBody() { id, page }: WebhookDeliveriesCommand,
  ): Promise<WebhookDeliveryResponse[]> {
    return this.queries.deliveriesOf(ctx, id, page ?? {});
  }

  @MessagePattern(WebhooksSubjects.resendDelivery)
  resend(
    @Caller() ctx: CallerContext,
    @CommandBody() body: ResendWebhookDeliveryCommand,
  ): Promise<WebhookDeliveryResponse> {
    return this.resendUseCase.run(ctx, body);
  }

  @MessagePattern(WebhooksSubjects.testEndpoint)
  test(@Caller() ctx: CallerContext, @CommandBody() body: WebhookEndpointIdCommand): Promise<WebhookDeliveryResponse> {
    return this.testUseCase.run(ctx, body);
  }
}
