import { CallerContext, UpdateWebhookEndpointCommand, WebhookEndpointResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { SealedUseCase, UseCase } from '@app/idempotency';
import { duplicateUrl, EndpointChecks, scopeOf } from './endpoint-checks';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { toEndpointView } from './webhook-views';

/** PATCH /v1/webhook-endpoint/{id}: its url (checked as on create), events, description, or disabled. */
@UseCase({
  operation: 'webhook_endpoint.update',
  idempotency: 'sealed',
  request: ({ id, body }: UpdateWebhookEndpointCommand) => ({ id, body }),
})
export class UpdateEndpointUseCase extends SealedUseCase<UpdateWebhookEndpointCommand, WebhookEndpointResponse> {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly checks: EndpointChecks,
  ) {
    super();
  }

  protected async execute(
    caller: CallerContext,
    { id, body }: UpdateWebhookEndpointCommand,
  ): Promise<WebhookEndpointResponse> {
    await this.checks.existing(caller, id);
    const url = body.url === undefined ? undefined : await this.checks.allowedUrl(body.url);
    const updated = await this.endpoints.update(scopeOf(caller), id, {
      url,
      events: body.events && [...new Set(body.events)],
      description: body.description === undefined ? undefined : body.description || null,
      disabled: body.disabled,
    });
    if (updated === 'duplicate-url') throw duplicateUrl();
    if (!updated) throw DomainError.notFound('webhook endpoint', 'id');
    return toEndpointView(updated);
  }
}
