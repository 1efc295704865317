import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpointResponse,
  PageQuery,
  RollEndpointSecretCommand,
  RolledWebhookEndpointResponse,
  UpdateWebhookEndpointCommand,
  WebhookEndpointIdCommand,
  WebhookEndpointResponse,
  WebhooksSubjects,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { CreateEndpointUseCase } from './create-endpoint.use-case';
import { DeleteEndpointUseCase } from './delete-endpoint.use-case';
import { RollEndpointSecretUseCase } from './roll-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from './update-endpoint.use-case';
import { WebhookQueries } from './webhook-queries';

/** Webhook endpoints and their signing secrets (the gateway's /v1/webhook-endpoint routes). */
@CommandHandler()
export class WebhookEndpointsHandler {
  constructor(
    private readonly createUseCase: CreateEndpointUseCase,
    private readonly updateUseCase: UpdateEndpointUseCase,
    private readonly rollSecretUseCase: RollEndpointSecretUseCase,
    private readonly deleteUseCase: DeleteEndpointUseCase,
    private readonly queries: WebhookQueries,
  ) {}

  @MessagePattern(WebhooksSubjects.createEndpoint)
  create(
    @Caller() ctx: CallerContext,
    @CommandBody() body: CreateWebhookEndpointRequest,
  ): Promise<CreatedWebhookEndpointResponse> {
    return this.createUseCase.run(ctx, body);
  }

  @MessagePattern(WebhooksSubjects.listEndpoints)
  list(@Caller() ctx: CallerContext, @CommandBody() body: PageQuery): Promise<WebhookEndpointResponse[]> {
    return this.queries.list(ctx, body);
  }

  @MessagePattern(WebhooksSubjects.getEndpoint)
  get(@Caller() ctx: CallerContext, @CommandBody() body: WebhookEndpointIdCommand): Promise<WebhookEndpointResponse> {
    return this.queries.get(ctx, body.id);
  }

  @MessagePattern(WebhooksSubjects.updateEndpoint)
  update(
    @Caller() ctx: CallerContext,
    @CommandBody() body: UpdateWebhookEndpointCommand,
  ): Promise<WebhookEndpointResponse> {
    return this.updateUseCase.run(ctx, body);
  }

  @MessagePattern(WebhooksSubjects.rollEndpointSecret)
  rollEndpointSecret(
    @Caller() ctx: CallerContext,
    @CommandBody() body: RollEndpointSecretCommand,
  ): Promise<RolledWebhookEndpointResponse> {
    return this.rollSecretUseCase.run(ctx, body);
  }

  @MessagePattern(WebhooksSubjects.deleteEndpoint)
  remove(
    @Caller() ctx: CallerContext,
    @CommandBody() body: WebhookEndpointIdCommand,
  ): Promise<DeletedWebhookEndpointResponse> {
    return this.deleteUseCase.run(ctx, body);
  }
}
