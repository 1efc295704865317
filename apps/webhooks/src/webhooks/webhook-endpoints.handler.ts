import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpointResponse,
  PageQuery,
  ResendWebhookDeliveryCommand,
  RollEndpointSecretCommand,
  RolledWebhookEndpointResponse,
  RollSecretRequest,
  UpdateWebhookEndpointCommand,
  WebhookDeliveriesCommand,
  WebhookDeliveryResponse,
  WebhookEndpointIdCommand,
  WebhookEndpointResponse,
  WebhooksSubjects,
  WebhookSecretResponse,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookIdempotency } from './webhook-idempotency';

/** Webhook endpoints, their delivery log and the account signing secret (the gateway's /v1/webhook-* routes). */
@CommandHandler()
export class WebhookEndpointsHandler {
  constructor(
    private readonly webhooks: WebhookEndpointsService,
    private readonly idempotency: WebhookIdempotency,
  ) {}

  @MessagePattern(WebhooksSubjects.createEndpoint)
  create(
    @Caller() ctx: CallerContext,
    @CommandBody() body: CreateWebhookEndpointRequest,
  ): Promise<CreatedWebhookEndpointResponse> {
    const create = () => this.webhooks.create(ctx, body);
    return this.idempotency.run(ctx, 'webhook_endpoint.create', body, create, { secret: true });
  }

  @MessagePattern(WebhooksSubjects.listEndpoints)
  list(@Caller() ctx: CallerContext, @CommandBody() body: PageQuery): Promise<WebhookEndpointResponse[]> {
    return this.webhooks.list(ctx, body);
  }

  @MessagePattern(WebhooksSubjects.getEndpoint)
  get(@Caller() ctx: CallerContext, @CommandBody() body: WebhookEndpointIdCommand): Promise<WebhookEndpointResponse> {
    return this.webhooks.get(ctx, body.id);
  }

  @MessagePattern(WebhooksSubjects.updateEndpoint)
  update(
    @Caller() ctx: CallerContext,
    @CommandBody() { id, body }: UpdateWebhookEndpointCommand,
  ): Promise<WebhookEndpointResponse> {
    const update = () => this.webhooks.update(ctx, id, body);
    return this.idempotency.run(ctx, 'webhook_endpoint.update', { id, body }, update);
  }

  @MessagePattern(WebhooksSubjects.rollEndpointSecret)
  rollEndpointSecret(
    @Caller() ctx: CallerContext,
    @CommandBody() { id, body }: RollEndpointSecretCommand,
  ): Promise<RolledWebhookEndpointResponse> {
    const roll = () => this.webhooks.rollEndpointSecret(ctx, id, body);
    return this.idempotency.run(ctx, 'webhook_endpoint.roll_secret', { id, body }, roll, { secret: true });
  }

  @MessagePattern(WebhooksSubjects.deleteEndpoint)
  remove(
    @Caller() ctx: CallerContext,
    @CommandBody() { id }: WebhookEndpointIdCommand,
  ): Promise<DeletedWebhookEndpointResponse> {
    return this.idempotency.run(ctx, 'webhook_endpoint.delete', { id }, () => this.webhooks.remove(ctx, id));
  }

  @MessagePattern(WebhooksSubjects.listDeliveries)
  deliveries(
    @Caller() ctx: CallerContext,
    @CommandBody() { id, page }: WebhookDeliveriesCommand,
  ): Promise<WebhookDeliveryResponse[]> {
    return this.webhooks.deliveriesOf(ctx, id, page ?? {});
  }

  @MessagePattern(WebhooksSubjects.resendDelivery)
  resend(
    @Caller() ctx: CallerContext,
    @CommandBody() { id, deliveryId }: ResendWebhookDeliveryCommand,
  ): Promise<WebhookDeliveryResponse> {
    const resend = () => this.webhooks.resend(ctx, id, deliveryId);
    return this.idempotency.run(ctx, 'webhook_delivery.resend', { id, deliveryId }, resend);
  }

  @MessagePattern(WebhooksSubjects.testEndpoint)
  test(
    @Caller() ctx: CallerContext,
    @CommandBody() { id }: WebhookEndpointIdCommand,
  ): Promise<WebhookDeliveryResponse> {
    return this.idempotency.run(ctx, 'webhook_endpoint.test', { id }, () => this.webhooks.test(ctx, id));
  }

  @MessagePattern(WebhooksSubjects.getSecret)
  secret(@Caller() ctx: CallerContext): Promise<WebhookSecretResponse> {
    return this.webhooks.secret(ctx);
  }

  @MessagePattern(WebhooksSubjects.rollSecret)
  rollSecret(@Caller() ctx: CallerContext, @CommandBody() body: RollSecretRequest): Promise<WebhookSecretResponse> {
    const roll = () => this.webhooks.rollSecret(ctx, body);
    return this.idempotency.run(ctx, 'webhook_secret.roll', body, roll, { secret: true });
  }
}
