import { Clock } from '@app/clock';
import { CallerContext, RollSecretRequest, WebhookSecretResponse } from '@app/contracts';
import { SealedUseCase, UseCase } from '@app/idempotency';
import { newSigningSecret } from '@app/webhook-signature';
import { scopeOf } from './endpoint-checks';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { DEFAULT_SECRET_GRACE_SECONDS, toSecretView } from './webhook-views';

/**
 * POST /v1/webhook-secret/roll: a new account signing secret (stored sealed for a retry); the old one signs on
 * for the grace.
 */
@UseCase({ operation: 'webhook_secret.roll', idempotency: 'sealed', secret: true })
export class RollSecretUseCase extends SealedUseCase<RollSecretRequest, WebhookSecretResponse> {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(caller: CallerContext, body: RollSecretRequest): Promise<WebhookSecretResponse> {
    const grace = body.expiresInSeconds ?? DEFAULT_SECRET_GRACE_SECONDS;
    const now = this.clock.now(caller);
    return toSecretView(await this.endpoints.rollSecret(scopeOf(caller), newSigningSecret(), now, grace));
  }
}
