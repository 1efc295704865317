import { Clock } from '@app/clock';
import { CallerContext, DeletedWebhookEndpointResponse, WebhookEndpointIdCommand } from '@app/contracts';
import { DomainError } from '@app/errors';
import { SealedUseCase, UseCase } from '@app/idempotency';
import { UUID } from '../events/list-query';
import { scopeOf } from './endpoint-checks';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** DELETE /v1/webhook-endpoint/{id}: a soft delete; its delivery log stays, and tries still waiting are given up. */
@UseCase({
  operation: 'webhook_endpoint.delete',
  idempotency: 'sealed',
  request: ({ id }: WebhookEndpointIdCommand) => ({ id }),
})
export class DeleteEndpointUseCase extends SealedUseCase<WebhookEndpointIdCommand, DeletedWebhookEndpointResponse> {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(
    caller: CallerContext,
    { id }: WebhookEndpointIdCommand,
  ): Promise<DeletedWebhookEndpointResponse> {
    if (!UUID.test(id)) throw DomainError.notFound('webhook endpoint', 'id');
    const deleted = await this.endpoints.softDelete(scopeOf(caller), id, this.clock.now(caller));
    if (!deleted) throw DomainError.notFound('webhook endpoint', 'id');
    return { id: deleted.id, deleted: true };
  }
}
