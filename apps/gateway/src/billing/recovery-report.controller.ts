import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BillingSubjects, CallerContext, RecoveryReportView, ReportRangeQuery } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { RequirePermission } from '../auth/permission';
import { BillingErrors } from './billing-errors';

/** What dunning recovered for the caller's merchant and environment (docs/api.md, Recovered revenue). */
@ApiTags('billing')
@Controller('v1/subscription')
@PrivateRoute()
export class RecoveryReportController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('recovery')
  @RequirePermission('read')
  @ApiOperation({
    summary: 'Recovered revenue, recovery rates by refusal reason and connection, invoices in dunning',
    description:
      'Over a range of days (UTC; default the last 30 on the environment clock, at most 366): invoices paid after ' +
      'at least one failed charge (amount by currency, count, by day), and of the renewals declined in the range ' +
      'how many were recovered, lost or are still open, overall, by the refusal reason that started dunning and ' +
      'by the connection that declined. `inDunning` lists the invoices in dunning now and their next step.',
  })
  @ApiOkResponse({ type: RecoveryReportView })
  @BillingErrors({ VALIDATION_FAILED: 'a day that does not exist, `from` after `to`, or more than 366 days' })
  report(@Query() query: ReportRangeQuery, @Caller() caller: CallerContext): Promise<RecoveryReportView> {
    const { merchantCode: _merchantCode, ...range } = query;
    return this.rpc.send<RecoveryReportView>(BillingSubjects.recoveryReport, caller, range);
  }
}
