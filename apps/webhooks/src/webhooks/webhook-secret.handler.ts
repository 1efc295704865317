import { MessagePattern } from '@nestjs/microservices';
import { CallerContext, RollSecretRequest, WebhooksSubjects, WebhookSecretResponse } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { RollSecretUseCase } from './roll-secret.use-case';
import { WebhookQueries } from './webhook-queries';

/** The account signing secret (the gateway's /v1/webhook-secret routes). */
@CommandHandler()
export class WebhookSecretHandler {
  constructor(
    private readonly rollUseCase: RollSecretUseCase,
    private readonly queries: WebhookQueries,
  ) {}

  @MessagePattern(WebhooksSubjects.getSecret)
  secret(@Caller() ctx: CallerContext): Promise<WebhookSecretResponse> {
    return this.queries.secret(ctx);
  }

  @MessagePattern(WebhooksSubjects.rollSecret)
  rollSecret(@Caller() ctx: CallerContext, @CommandBody() body: RollSecretRequest): Promise<WebhookSecretResponse> {
    return this.rollUseCase.run(ctx, body);
  }
}
