import { Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import {
  CallerContext,
  PageQuery,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookSecretResponse,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { newSigningSecret } from '@app/webhook-signature';
import { EndpointChecks, scopeOf } from './endpoint-checks';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { DEFAULT_LIMIT, UUID } from '../events/list-query';
import { toDeliveryView, toEndpointView, toSecretView } from './webhook-views';

/** What the webhook settings read: the endpoints, an endpoint's delivery log, the account signing secret. */
@Injectable()
export class WebhookQueries {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly checks: EndpointChecks,
    private readonly clock: Clock,
  ) {}

  async list(caller: CallerContext, query: PageQuery): Promise<WebhookEndpointResponse[]> {
    if (query.startingAfter) await this.checks.existing(caller, query.startingAfter, 'startingAfter', true);
    const rows = await this.endpoints.list(scopeOf(caller), query.limit ?? DEFAULT_LIMIT, query.startingAfter);
    return rows.map(toEndpointView);
  }

  async get(caller: CallerContext, id: string): Promise<WebhookEndpointResponse> {
    return toEndpointView(await this.checks.existing(caller, id));
  }

  async deliveriesOf(caller: CallerContext, id: string, query: PageQuery): Promise<WebhookDeliveryResponse[]> {
    const endpoint = await this.checks.existing(caller, id);
    const cursor = query.startingAfter;
    if (cursor && !(UUID.test(cursor) && (await this.deliveries.attemptOfEndpoint(endpoint.id, cursor)))) {
      throw DomainError.notFound('delivery', 'startingAfter');
    }
    const rows = await this.deliveries.listForEndpoint(endpoint.id, query.limit ?? DEFAULT_LIMIT, cursor);
    return rows.map((row) => toDeliveryView(row, !endpoint.disabled));
  }

  /** The account signing secret; the first read of an account makes it. */
  async secret(caller: CallerContext): Promise<WebhookSecretResponse> {
    return toSecretView(await this.endpoints.secret(scopeOf(caller), newSigningSecret(), this.clock.now(caller)));
  }
}
