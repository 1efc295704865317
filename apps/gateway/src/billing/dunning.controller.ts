import { Audited } from '../audit/audited';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BillingSubjects, CallerContext, MerchantBody, SubscriptionView } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { PrivateRoute } from '../auth/caller.decorator';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { BillingErrors, CHARGES, IDEMPOTENT } from './billing-errors';
import { RequirePermission } from '../auth/permission';

/** The merchant's side of dunning: a payment attempt forced now on a past_due subscription. */
@ApiTags('billing')
@Controller('v1/subscription')
@PrivateRoute()
export class DunningController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(':id/retry-payment')
  @Audited('subscription.payment_retried')
  @RequirePermission('money')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'Charge the open invoice of a past_due subscription now',
    description:
      'Counts in the invoice paymentAttemptCount (not dunningAttemptCount) and leaves the retry schedule as it ' +
      'was. Success: invoice paid, subscription active. A decline answers 402 and keeps the subscription past_due.',
  })
  @ApiOkResponse({ type: SubscriptionView })
  @BillingErrors(...IDEMPOTENT, CHARGES, {
    NOT_FOUND: 'no such subscription for this merchant and environment',
    INVALID_STATE: 'the subscription is not past_due, or a payment attempt is in progress',
  })
  retryPayment(
    @Param('id') id: string,
    @Body() _body: MerchantBody,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<SubscriptionView> {
    return this.rpc.send<SubscriptionView>(BillingSubjects.retryPayment, caller, { id });
  }
}
