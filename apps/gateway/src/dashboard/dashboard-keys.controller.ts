import { Audited } from '../audit/audited';
import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Clock } from '@app/clock';
import { clientAddress } from '../http/client-address';
import { DashboardAuditRepository } from '../audit/dashboard-audit.repository';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '@app/errors';
import { ApiKeysService, KeyView } from '../auth/api-keys.service';
import { ApiErrors } from '../http/api-errors';
import { GatewayIdempotency, IdempotencyKey } from '../idempotency/gateway-idempotency';
import { IdempotencyKeyHeader } from '../auth/idempotent-caller.decorator';
import { DashboardSession } from './dashboard-sessions.service';
import {
  CreateDashboardKeyRequest,
  CreatedDashboardKeyResponse,
  DashboardKeyResponse,
  DashboardKeysQuery,
} from './dashboard.dto';
import { CurrentSession, requireRole, SessionRoute } from './session.guard';

const OWNERS_ONLY = {
  AUTH_INSUFFICIENT_SCOPE: 'the user is not an owner of the merchant',
  MERCHANT_MISMATCH: 'the user is not a member of the merchant',
};

/** API keys, managed by a merchant's owners in the dashboard; the full key is shown once, at creation. */
@ApiTags('dashboard')
@Controller('dashboard/api/keys')
@SessionRoute()
export class DashboardKeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly idempotency: GatewayIdempotency,
    private readonly audit: DashboardAuditRepository,
    private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The merchant’s API keys in one environment, newest first (owners)' })
  @ApiOkResponse({ type: [DashboardKeyResponse] })
  @ApiErrors(OWNERS_ONLY)
  async list(
    @CurrentSession() session: DashboardSession,
    @Query() query: DashboardKeysQuery,
  ): Promise<DashboardKeyResponse[]> {
    requireRole(session, query.merchantCode, 'owner');
    const keys = await this.keys.list(query.merchantCode);
    return keys.filter((k) => k.environment === query.environment).map(toResponse);
  }

  @Post()
  @Audited('api_key.created')
  @IdempotencyKeyHeader()
  @ApiErrors('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED')
  @ApiOperation({
    summary: 'Create an API key for the merchant (owners); the answer shows the key once',
    description: 'A retry with the same Idempotency-Key answers the same key record without `key`.',
  })
  @ApiCreatedResponse({ type: CreatedDashboardKeyResponse })
  @ApiErrors(OWNERS_ONLY)
  create(
    @CurrentSession() session: DashboardSession,
    @Body() body: CreateDashboardKeyRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<CreatedDashboardKeyResponse> {
    requireRole(session, body.merchantCode, 'owner');
    const scope = { merchantCode: body.merchantCode, environment: body.environment, idempotencyKey };
    // The key is shown once: the Idempotency-Key's row keeps the answer without it, in no form.
    return this.idempotency.run(scope, 'dashboard_key.create', body, () => this.newKey(body), {
      shownOnce: ({ key: _shownOnce, ...rest }) => rest as CreatedDashboardKeyResponse,
    });
  }

  private async newKey(body: CreateDashboardKeyRequest): Promise<CreatedDashboardKeyResponse> {
    const created = await this.keys.create([body.merchantCode], body.type, body.environment, body.name);
    return {
      id: created.id,
      name: body.name,
      type: created.type,
      environment: created.environment,
      prefix: hintOf(created.key),
      createdAt: created.createdAt,
      revokedAt: null,
      key: created.key,
    };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API key (owners of every merchant the key belongs to)' })
  @ApiNoContentResponse({ description: 'Revoked: the key answers 401 from now on' })
  @ApiErrors(OWNERS_ONLY, { NOT_FOUND: 'no such key of the user’s merchants' })
  async revoke(
    @Req() request: FastifyRequest,
    @CurrentSession() session: DashboardSession,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => DomainError.notFound('key', 'id') })) id: string,
  ): Promise<void> {
    const key = await this.keys.find(id);
    const mine = key?.merchantCodes.some((code) => session.memberships.some((m) => m.merchantCode === code));
    if (!key || !mine) throw DomainError.notFound('key', 'id');
    for (const code of key.merchantCodes) requireRole(session, code, 'owner');
    await this.keys.revoke(id);
    const actor = {
      channel: 'dashboard' as const,
      userId: session.user.id,
      email: session.user.email,
      sessionId: session.id,
    };
    for (const merchantCode of key.merchantCodes) {
      await this.audit.recordChange({
        type: 'api_key.revoked',
        actor,
        merchantCode,
        environment: key.environment,
        target: id,
        detail: {},
        clientAddress: clientAddress(request),
        at: this.clock.now(),
      });
    }
  }
}

/** The start of a key as the dashboard shows it (the stored hint has the same shape). */
const hintOf = (key: string): string => `${key.slice(0, key.lastIndexOf('_') + 5)}…`;

const toResponse = (k: KeyView): DashboardKeyResponse => ({
  id: k.id,
  name: k.name,
  type: k.type,
  environment: k.environment,
  prefix: k.keyHint,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt,
});
