import { Injectable } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Clock, reportRange } from '@app/clock';
import { BillingSubjects, CallerContext, RecoveryReportView, ReportRangeQuery } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { recoveryReport } from './recovery-report';
import { RecoveryReportRepository } from './recovery-report.repository';

/** What dunning recovered for the caller's merchant and environment, over a range of days on its clock. */
@Injectable()
export class RecoveryReportService {
  constructor(
    private readonly reports: RecoveryReportRepository,
    private readonly clock: Clock,
  ) {}

  async report(ctx: CallerContext, query: ReportRangeQuery): Promise<RecoveryReportView> {
    const range = reportRange(query, this.clock.now(ctx));
    const [cohort, recovered, inDunning] = await Promise.all([
      this.reports.cohort(ctx, range),
      this.reports.recoveredByDay(ctx, range),
      this.reports.inDunning(ctx),
    ]);
    return recoveryReport(range, { cohort, recovered, inDunning });
  }
}

@CommandHandler()
export class RecoveryReportHandler {
  constructor(private readonly service: RecoveryReportService) {}

  @MessagePattern(BillingSubjects.recoveryReport)
  report(@Caller() ctx: CallerContext, @CommandBody() query: ReportRangeQuery): Promise<RecoveryReportView> {
    return this.service.report(ctx, query);
  }
}
