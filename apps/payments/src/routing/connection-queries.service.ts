import { Injectable } from '@nestjs/common';
import { CallerContext, ConnectionResponse } from '@app/contracts';
import { ConnectionEntity } from './connection.entity';
import { ConnectionHealth } from '../connector/connection-health';
import { RoutingService } from './routing.service';

/** The admin API's connections of a merchant in one environment (ctx.environment), as the admin API shows them. */
@Injectable()
export class ConnectionQueries {
  constructor(
    private readonly routing: RoutingService,
    private readonly health: ConnectionHealth,
  ) {}

  async list(ctx: CallerContext): Promise<ConnectionResponse[]> {
    return (await this.routing.connectionsOf(ctx, { fresh: true })).map((c) => this.view(c));
  }

  view(c: ConnectionEntity): ConnectionResponse {
    return {
      id: c.id,
      connectionCode: c.connectionCode,
      connectionName: c.connectionName,
      acquirer: c.acquirer,
      environment: c.environment,
      currencies: c.currencies,
      methods: c.methods,
      priority: c.priority,
      isDefault: c.isDefault,
      ...(c.endpoint ? { endpoint: c.endpoint } : {}),
      ...(c.credentialsKeyId && c.credentialHints && c.credentialsUpdatedAt
        ? {
            credentials: {
              ...c.credentialHints,
              keyId: c.credentialsKeyId,
              updatedAt: c.credentialsUpdatedAt.toISOString(),
            },
          }
        : {}),
      health: this.health.view(c.id),
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
  }
}
