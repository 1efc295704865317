import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CallerContext, PaymentsSubjects, PaymentStatsView, ReportRangeQuery } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { RequirePermission } from '../auth/permission';
import { PaymentErrors } from './payment-errors';

/** The merchant's payment figures by day: volume, approval rate, declines by reason (the dashboard's home). */
@ApiTags('payments')
@Controller('v1/payment')
@PrivateRoute()
export class PaymentStatsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('stats')
  @RequirePermission('read')
  @ApiOperation({
    summary: 'Payment volume, approval rate and declines by reason, by day',
    description:
      'Payments of the caller’s merchant and environment created in a range of days (UTC; default the last 30 on ' +
      'the environment clock, at most 366), counted in the database: approved (authorized or captured, refunded ' +
      'or voided since included), declined, failed, the approved amounts by currency, and declines by reason.',
  })
  @ApiOkResponse({ type: PaymentStatsView })
  @PaymentErrors({ VALIDATION_FAILED: 'a day that does not exist, `from` after `to`, or more than 366 days' })
  stats(@Query() query: ReportRangeQuery, @Caller() caller: CallerContext): Promise<PaymentStatsView> {
    const { merchantCode: _merchantCode, ...range } = query;
    return this.rpc.send<PaymentStatsView>(PaymentsSubjects.stats, caller, range);
  }
}
