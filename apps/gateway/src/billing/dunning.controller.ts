import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BillingSubjects, CallerContext, OptionalMerchantBody, SubscriptionView } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { PrivateRoute } from '../auth/caller.decorator';
import { IdempotencyKeyHeader, IdempotentCaller } from '../payments/idempotent-caller.decorator';
import { BillingErrorResponses } from './billing-errors';

/** The merchant's side of dunning: a payment attempt forced now on a past_due subscription. */
@ApiTags('billing')
@Controller('v1/subscription')
@PrivateRoute()
export class DunningController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(':id/retry-payment')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'Charge the open invoice of a past_due subscription now',
    description:
      'Counts in the invoice paymentAttemptCount (not dunningAttemptCount) and leaves the retry schedule as it ' +
      'was. Success: invoice paid, subscription active. A decline answers 402 and keeps the subscription past_due.',
  })
  @ApiOkResponse({ type: SubscriptionView })
  @BillingErrorResponses({
    notFound: 'No such subscription for this merchant and environment',
    conflict: 'INVALID_STATE (not past_due, or a payment attempt in progress) or IDEMPOTENCY_IN_PROGRESS',
    unprocessable: 'IDEMPOTENCY_KEY_REUSED',
    declined: true,
    payments: true,
  })
  retryPayment(
    @Param('id') id: string,
    @Body() _body: OptionalMerchantBody,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<SubscriptionView> {
    return this.rpc.send<SubscriptionView>(BillingSubjects.retryPayment, caller, { id });
  }
}
