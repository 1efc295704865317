import { Inject } from '@nestjs/common';
import { Clock, uuidv7 } from '@app/clock';
import { CallerContext, CreatedWebhookEndpointResponse, CreateWebhookEndpointRequest } from '@app/contracts';
import { DomainError } from '@app/errors';
import { SealedUseCase, UseCase } from '@app/idempotency';
import { newSigningSecret } from '@app/webhook-signature';
import { duplicateUrl, EndpointChecks } from './endpoint-checks';
import { EndpointRow, WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { toEndpointView } from './webhook-views';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

/**
 * POST /v1/webhook-endpoint: a new endpoint and its signing secret, shown only in this answer (a retry of the key
 * replays it: the stored answer is sealed). 409 at the per-merchant limit or for a url the merchant already has.
 */
@UseCase({ operation: 'webhook_endpoint.create', idempotency: 'sealed', secret: true })
export class CreateEndpointUseCase extends SealedUseCase<CreateWebhookEndpointRequest, CreatedWebhookEndpointResponse> {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly checks: EndpointChecks,
    private readonly clock: Clock,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
  ) {
    super();
  }

  protected async execute(
    caller: CallerContext,
    body: CreateWebhookEndpointRequest,
  ): Promise<CreatedWebhookEndpointResponse> {
    const endpoint: EndpointRow = {
      id: uuidv7(),
      merchantCode: caller.merchantCode,
      environment: caller.environment,
      url: await this.checks.allowedUrl(body.url),
      events: [...new Set(body.events)],
      description: body.description ?? null,
      disabled: false,
      createdAt: this.clock.now(caller),
      deletedAt: null,
    };
    const secret = newSigningSecret();
    const max = this.options.maxEndpoints;
    const refused = await this.endpoints.insert(endpoint, secret, max);
    if (refused === 'limit') {
      throw new DomainError(
        'WEBHOOK_ENDPOINT_LIMIT',
        `At most ${max} webhook endpoints per merchant and environment; delete one first`,
      );
    }
    if (refused) throw duplicateUrl();
    return { ...toEndpointView(endpoint), secret };
  }
}
