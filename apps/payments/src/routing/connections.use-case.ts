import { Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { CallerContext, ConnectionRequest, ConnectionResponse, UpsertConnectionResult } from '@app/contracts';
import { ConnectionEntity } from './connection.entity';
import { ConnectionRepository } from './connection.repository';
import { RoutingService } from './routing.service';

const view = (c: ConnectionEntity): ConnectionResponse => ({
  connectionCode: c.connectionCode,
  connectionName: c.connectionName,
  acquirer: c.acquirer,
  environment: c.environment,
  currencies: c.currencies,
  methods: c.methods,
  priority: c.priority,
  isDefault: c.isDefault,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/** The admin API's connections of a merchant in one environment (ctx.environment). */
@Injectable()
export class ConnectionsUseCase {
  constructor(
    private readonly connections: ConnectionRepository,
    private readonly routing: RoutingService,
    private readonly clock: Clock,
  ) {}

  async upsert(ctx: CallerContext, body: ConnectionRequest): Promise<UpsertConnectionResult> {
    // The default exists before the first custom one, so "every merchant gets a default" stays true.
    await this.routing.connectionsOf(ctx);
    const { created, row } = await this.connections.upsert(ctx, body, this.clock.now(ctx));
    this.routing.forget(ctx);
    return { created, connection: view(row) };
  }

  async list(ctx: CallerContext): Promise<ConnectionResponse[]> {
    return (await this.routing.connectionsOf(ctx, { fresh: true })).map(view);
  }
}
