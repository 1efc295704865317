import { CallerContext, RollEndpointSecretCommand, RolledWebhookEndpointResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { SealedUseCase, UseCase } from '@app/idempotency';
import { newSigningSecret } from '@app/webhook-signature';
import { EndpointChecks, scopeOf } from './endpoint-checks';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { DEFAULT_SECRET_GRACE_SECONDS, iso, toEndpointView } from './webhook-views';

/**
 * POST /v1/webhook-endpoint/{id}/roll-secret: a new signing secret for the endpoint, shown only in this answer
 * (stored sealed for a retry); the old one signs on for the grace.
 */
@UseCase({
  operation: 'webhook_endpoint.roll_secret',
  idempotency: 'sealed',
  secret: true,
  request: ({ id, body }: RollEndpointSecretCommand) => ({ id, body }),
})
export class RollEndpointSecretUseCase extends SealedUseCase<RollEndpointSecretCommand, RolledWebhookEndpointResponse> {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly checks: EndpointChecks,
  ) {
    super();
  }

  protected async execute(
    caller: CallerContext,
    { id, body }: RollEndpointSecretCommand,
  ): Promise<RolledWebhookEndpointResponse> {
    await this.checks.existing(caller, id);
    const secret = newSigningSecret();
    const grace = body.expiresInSeconds ?? DEFAULT_SECRET_GRACE_SECONDS;
    const rolled = await this.endpoints.rollEndpointSecret(scopeOf(caller), id, secret, grace);
    if (!rolled) throw DomainError.notFound('webhook endpoint', 'id');
    return { ...toEndpointView(rolled), secret, previousSecretExpiresAt: iso(rolled.previousSecretExpiresAt) };
  }
}
