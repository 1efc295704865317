import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  ConnectionRequest,
  ConnectionResponse,
  PaymentsSubjects,
  UpsertConnectionResult,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { ConnectionsUseCase } from './connections.use-case';

/** Admin commands on routing connections; the gateway's AdminGuard authorized them. */
@CommandHandler()
export class ConnectionsHandler {
  constructor(private readonly connections: ConnectionsUseCase) {}

  @MessagePattern(PaymentsSubjects.upsertConnection)
  upsert(@Caller() ctx: CallerContext, @CommandBody() body: ConnectionRequest): Promise<UpsertConnectionResult> {
    return this.connections.upsert(ctx, body);
  }

  @MessagePattern(PaymentsSubjects.listConnections)
  list(@Caller() ctx: CallerContext): Promise<ConnectionResponse[]> {
    return this.connections.list(ctx);
  }
}
