import { Body, Controller, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { BillingSubjects, RetryParkedRenewalRequest, SubscriptionView } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { ApiErrors } from '../http/api-errors';
import { GatewayIdempotency, IdempotencyKey, ADMIN_KEY_SCOPE } from '../idempotency/gateway-idempotency';
import { IdempotencyKeyHeader } from '../auth/idempotent-caller.decorator';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { AdminGuard } from './admin.guard';

/**
 * Operators' side of parked renewals (docs/operations.md#parked-renewals): once the cause of a renewal that
 * failed for a reason retrying cannot change is fixed, the park is lifted and the scheduler renews it again.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@UseGuards(AdminGuard)
@Controller('v1/admin/merchants/:merchantCode/subscriptions')
export class ParkedRenewalsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly idempotency: GatewayIdempotency,
  ) {}

  @Post(':id/retry-parked-renewal')
  @IdempotencyKeyHeader()
  @ApiErrors('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Retry a parked renewal',
    description:
      'Lifts the park (`renewalParked` becomes null): the renewal runs at the scheduler’s next round (a sandbox ' +
      'subscription: at its merchant’s next clock advance). Parked again if it fails the same way.',
  })
  @ApiOkResponse({ type: SubscriptionView })
  @ApiErrors(forwardedTo('billing'), {
    NOT_FOUND: 'no such subscription of this merchant and environment',
    INVALID_STATE: 'the subscription has no parked renewal',
  })
  retry(
    @Param('merchantCode') merchantCode: string,
    @Param('id') id: string,
    @Body() body: RetryParkedRenewalRequest,
    @Req() request: FastifyRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<SubscriptionView> {
    const ctx = { requestId: String(request.id), environment: body.environment, merchantCode };
    const retry = () => this.rpc.send<SubscriptionView>(BillingSubjects.retryParkedRenewal, ctx, { id });
    const scope = { ...ADMIN_KEY_SCOPE, idempotencyKey };
    return this.idempotency.run(scope, 'parked_renewal.retry', { merchantCode, id, body }, retry);
  }
}
