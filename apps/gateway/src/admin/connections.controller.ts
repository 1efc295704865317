import { Audited } from '../audit/audited';
import { Body, Controller, Get, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CallerContext,
  ConnectionRequest,
  ConnectionResponse,
  ENVIRONMENTS,
  Environment,
  ListConnectionsQuery,
  PaymentsSubjects,
  UpsertConnectionResult,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { MerchantsService } from '../auth/merchants.service';
import { AdminGuard } from './admin.guard';
import { ApiErrors } from '../http/api-errors';
import { GatewayIdempotency, IdempotencyKey, ADMIN_KEY_SCOPE } from '../idempotency/gateway-idempotency';
import { IdempotencyKeyHeader } from '../auth/idempotent-caller.decorator';
import { forwardedTo } from '../http/upstream-timeout.doc';

/** Operators' API for a merchant's routing connections; they live in the payments service. */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@UseGuards(AdminGuard)
@Controller('v1/admin/merchants/:merchantCode/connections')
export class ConnectionsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly merchants: MerchantsService,
    private readonly idempotency: GatewayIdempotency,
  ) {}

  @Post()
  @Audited('connection.created')
  @IdempotencyKeyHeader()
  @ApiErrors('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED')
  @ApiOperation({
    summary: 'Create a connection (201), or replace the one with the same connectionCode (200)',
    description:
      'A real provider (adyen, stripe) takes its credentials, encrypted at rest and never shown again; a ' +
      'production connection to the simulator (sandbox) needs `allowSimulator: true` and is refused by a ' +
      'NODE_ENV=production deployment. There is no delete. Other payments replicas route with the change ' +
      'within five seconds.',
  })
  @ApiCreatedResponse({ type: ConnectionResponse })
  @ApiOkResponse({ type: ConnectionResponse })
  @ApiErrors(forwardedTo('payments'), {
    NOT_FOUND: 'unknown merchant',
    VALIDATION_FAILED:
      'a field is wrong; a credential the acquirer needs is missing (`param` names it); the simulator in production without allowSimulator, or in a production deployment',
  })
  async upsert(
    @Param('merchantCode') merchantCode: string,
    @Body() body: ConnectionRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<ConnectionResponse> {
    await this.requireMerchant(merchantCode);
    const ctx = this.context(request, merchantCode, body.environment);
    const upsert = () => this.rpc.send<UpsertConnectionResult>(PaymentsSubjects.upsertConnection, ctx, body);
    // A replay answers the first status too (201 created, 200 replaced); the answer may name credentials: sealed.
    const scope = { ...ADMIN_KEY_SCOPE, idempotencyKey };
    const keyed = { merchantCode, body };
    const result = await this.idempotency.run(scope, 'connection.upsert', keyed, upsert, { secret: true });
    void reply.status(result.created ? 201 : 200);
    return result.connection;
  }

  @Get()
  @ApiOperation({
    summary: 'A merchant’s connections in routing order, each with its health (the default sandbox one included)',
    description:
      'Credentials never come back: `credentials` shows the last four characters of each and the key id they ' +
      'are encrypted under. `health` is as seen by the payments replica that answered.',
  })
  @ApiOkResponse({ type: [ConnectionResponse] })
  @ApiErrors(forwardedTo('payments'), { NOT_FOUND: 'unknown merchant' })
  async list(
    @Param('merchantCode') merchantCode: string,
    @Query() query: ListConnectionsQuery,
    @Req() request: FastifyRequest,
  ): Promise<ConnectionResponse[]> {
    await this.requireMerchant(merchantCode);
    const environments: readonly Environment[] = query.environment ? [query.environment] : ENVIRONMENTS;
    const lists = await Promise.all(
      environments.map((e) =>
        this.rpc.send<ConnectionResponse[]>(
          PaymentsSubjects.listConnections,
          this.context(request, merchantCode, e),
          {},
        ),
      ),
    );
    return lists.flat();
  }

  private async requireMerchant(merchantCode: string): Promise<void> {
    try {
      await this.merchants.requireAll([merchantCode]);
    } catch (e) {
      if (e instanceof DomainError && e.code === 'NOT_FOUND') throw DomainError.notFound('merchant', 'merchantCode');
      throw e;
    }
  }

  private context(request: FastifyRequest, merchantCode: string, environment: Environment): CallerContext {
    return { requestId: String(request.id), environment, merchantCode };
  }
}
