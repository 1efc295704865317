import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  ConnectionRequest,
  ConnectionResponse,
  PaymentsSubjects,
  UpsertConnectionResult,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { ConnectionQueries } from './connection-queries.service';
import { UpsertConnectionUseCase } from './upsert-connection.use-case';

/** Admin commands on routing connections; the gateway's AdminGuard authorized them. */
@CommandHandler()
export class ConnectionsHandler {
  constructor(
    private readonly upsertUseCase: UpsertConnectionUseCase,
    private readonly connections: ConnectionQueries,
  ) {}

  @MessagePattern(PaymentsSubjects.upsertConnection)
  upsert(@Caller() ctx: CallerContext, @CommandBody() body: ConnectionRequest): Promise<UpsertConnectionResult> {
    return this.upsertUseCase.run(ctx, body);
  }

  @MessagePattern(PaymentsSubjects.listConnections)
  list(@Caller() ctx: CallerContext): Promise<ConnectionResponse[]> {
    return this.connections.list(ctx);
  }
}
