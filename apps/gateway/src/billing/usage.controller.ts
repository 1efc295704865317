import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  BillingSubjects,
  CallerContext,
  UsageBatchRequest,
  UsageBatchResponse,
  UsageEventView,
  UsageRequest,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { ERROR_NOTES } from '../http/api-errors';
import { BillingErrors } from './billing-errors';
import { RequirePermission } from '../auth/permission';

/** Metered usage (docs/api.md, Usage), recorded by the billing service and billed in arrears at renewal. */
@ApiTags('billing')
@Controller('v1/subscription/usage')
export class UsageController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @RequirePermission('manage')
  @PrivateRoute()
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Per meter: a retry with the same meterCode and key answers the recorded event (200, duplicate true)',
  })
  @ApiOperation({ summary: 'Report usage of a meter for a subscription' })
  @ApiCreatedResponse({ type: UsageEventView, description: 'A new event' })
  @ApiOkResponse({ type: UsageEventView, description: 'A replay: the recorded event with duplicate true' })
  @BillingErrors({
    NOT_FOUND: 'unknown subscription or meterCode',
    INVALID_STATE: 'the subscription is cancelled or completed',
    USAGE_PERIOD_CLOSED: ERROR_NOTES.USAGE_PERIOD_CLOSED,
    IDEMPOTENCY_KEY_REUSED: 'the key recorded another event for this meter',
  })
  async record(
    @Body() body: UsageRequest,
    @IdempotentCaller() caller: CallerContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UsageEventView> {
    const { merchantCode: _merchantCode, ...event } = body;
    const recorded = await this.rpc.send<UsageEventView>(BillingSubjects.recordUsage, caller, event);
    void reply.status(recorded.duplicate ? 200 : 201);
    return recorded;
  }

  @Post('batch')
  @RequirePermission('manage')
  @HttpCode(200)
  @PrivateRoute()
  @ApiOperation({
    summary: 'Report 1–1,000 usage events; each result has the status and body a single report would have had',
  })
  @ApiOkResponse({ type: UsageBatchResponse })
  @BillingErrors()
  recordBatch(@Body() body: UsageBatchRequest, @Caller() caller: CallerContext): Promise<UsageBatchResponse> {
    const { merchantCode: _merchantCode, ...batch } = body;
    return this.rpc.send<UsageBatchResponse>(BillingSubjects.recordUsageBatch, caller, batch);
  }
}
