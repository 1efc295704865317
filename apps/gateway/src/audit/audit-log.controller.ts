import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { CallerContext, PageQuery } from '@app/contracts';
import { DomainError } from '@app/errors';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { RequirePermission } from '../auth/permission';
import { AUDIT_ACTIONS, DashboardAuditRepository } from './dashboard-audit.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class AuditEventResponse {
  @ApiProperty({ description: 'Time-ordered: `startingAfter` takes it to answer older events' }) id: string;
  @ApiProperty({ enum: AUDIT_ACTIONS, example: 'payment.refunded' }) type: string;
  @ApiProperty({
    enum: ['dashboard', 'api', 'admin'],
    description: 'How the change was made: a dashboard user, an API key, or the platform operator (admin API)',
  })
  channel: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'The dashboard user who made it' }) userId:
    string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'ana@acme.example' }) userEmail: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'The API key that made it (its id, never the key)',
  })
  apiKeyId: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    enum: ['sandbox', 'production'],
    description: 'None for team changes',
  })
  environment: string | null;
  @ApiPropertyOptional({
    nullable: true,
    description: 'The object changed: payment, subscription, endpoint, key or user id',
  })
  target: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { amount: { value: 500, currency: 'EUR' } },
    description: 'What was sent that says what changed (amount, role, email, url, name); never a secret',
  })
  detail: Record<string, unknown>;
  @ApiPropertyOptional({ nullable: true, type: String, example: '203.0.113.7' }) clientAddress: string | null;
  @ApiProperty() createdAt: string;
}

/** The merchant's audit log: every change to its users, keys, endpoints, connections, policies and money. */
@ApiTags('audit')
@Controller('v1/audit-events')
@PrivateRoute()
export class AuditLogController {
  constructor(private readonly audit: DashboardAuditRepository) {}

  @Get()
  @RequirePermission('audit')
  @ApiOperation({
    summary: 'The audit log: who changed what, when, from where (newest first; owners and private keys)',
    description:
      'Changes in the key’s environment and the merchant’s team changes. Append-only: nothing here is ever ' +
      'changed or removed. Page with `startingAfter` (the last id of a page).',
  })
  @ApiOkResponse({ type: [AuditEventResponse] })
  async list(@Query() query: PageQuery, @Caller() caller: CallerContext): Promise<AuditEventResponse[]> {
    if (query.startingAfter !== undefined && !UUID.test(query.startingAfter)) {
      throw DomainError.validation('startingAfter must be the id of an audit event', 'startingAfter');
    }
    const rows = await this.audit.listForMerchant(caller.merchantCode, {
      environment: caller.environment,
      before: query.startingAfter,
      limit: query.limit ?? 20,
    });
    return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  }
}
