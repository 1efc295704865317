import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ConnectionResponse, PaymentsSubjects } from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { roleAllows } from '../auth/permission';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { DashboardConnectionResponse, DashboardConnectionsQuery } from './dashboard-connections.dto';
import type { DashboardSession } from './dashboard-sessions.service';
import { CurrentSession, SessionRoute } from './session.guard';

/**
 * The merchant's routing connections and their health, read-only, for any member whose role may read
 * payments: the payments service's own list (the admin API's), with the credentials' last four characters only.
 */
@ApiTags('dashboard')
@Controller('dashboard/api/connections')
@SessionRoute()
export class DashboardConnectionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'The merchant’s connections in one environment, in routing order, each with its health (any member)',
    description:
      'Credentials show the last four characters of each, never the value. `health` is as seen by the payments ' +
      'replica that answered: the last call that succeeded (an approval or a decline is an answer), the last ' +
      'that failed and why, the share of the recent calls that failed, and the circuit. Production has no ' +
      'connection until the operator adds one.',
  })
  @ApiOkResponse({ type: [DashboardConnectionResponse] })
  @ApiErrors(forwardedTo('payments'), {
    MERCHANT_MISMATCH: 'the user is not a member of the merchant',
    AUTH_INSUFFICIENT_SCOPE: 'the user’s role may not read the merchant’s payments',
  })
  async list(
    @Req() request: FastifyRequest,
    @CurrentSession() session: DashboardSession,
    @Query() query: DashboardConnectionsQuery,
  ): Promise<DashboardConnectionResponse[]> {
    const membership = session.memberships.find((m) => m.merchantCode === query.merchantCode);
    if (!membership) {
      throw new DomainError('MERCHANT_MISMATCH', `You are not a member of merchant ${query.merchantCode}`);
    }
    if (!roleAllows(membership.role, 'read')) {
      throw new DomainError('AUTH_INSUFFICIENT_SCOPE', `The ${membership.role} role may not do this`);
    }
    const ctx = { requestId: String(request.id), environment: query.environment, merchantCode: query.merchantCode };
    const connections = await this.rpc.send<ConnectionResponse[]>(PaymentsSubjects.listConnections, ctx, {});
    return connections.map(toDashboard);
  }
}

/** Field by field: only what the team may see (no endpoint, no key id), whatever the service adds later. */
function toDashboard(c: ConnectionResponse): DashboardConnectionResponse {
  const cr = c.credentials;
  return {
    id: c.id,
    connectionCode: c.connectionCode,
    connectionName: c.connectionName,
    acquirer: c.acquirer,
    environment: c.environment,
    priority: c.priority,
    currencies: c.currencies,
    methods: c.methods,
    isDefault: c.isDefault,
    ...(cr
      ? {
          credentials: {
            ...(cr.apiKeyLast4 ? { apiKeyLast4: cr.apiKeyLast4 } : {}),
            ...(cr.merchantAccountLast4 ? { merchantAccountLast4: cr.merchantAccountLast4 } : {}),
            ...(cr.hmacKeyLast4 ? { hmacKeyLast4: cr.hmacKeyLast4 } : {}),
            ...(cr.webhookSecretLast4 ? { webhookSecretLast4: cr.webhookSecretLast4 } : {}),
            updatedAt: cr.updatedAt,
          },
        }
      : {}),
    health: {
      circuit: c.health.circuit,
      lastSuccessAt: c.health.lastSuccessAt,
      lastFailureAt: c.health.lastFailureAt,
      lastFailureReason: c.health.lastFailureReason ?? null,
      errorRate: c.health.errorRate,
      recentCalls: c.health.recentCalls,
    },
  };
}
