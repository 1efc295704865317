import { MessagePattern } from '@nestjs/microservices';
import {
  BillingSubjects,
  CallerContext,
  UsageBatchRequest,
  UsageBatchResponse,
  UsageEventView,
  UsageRequest,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { RecordUsage } from './record-usage.use-case';

@CommandHandler()
export class UsageHandler {
  constructor(private readonly recordUsage: RecordUsage) {}

  @MessagePattern(BillingSubjects.recordUsage)
  record(@Caller() ctx: CallerContext, @CommandBody() body: UsageRequest): Promise<UsageEventView> {
    return this.recordUsage.one(ctx, body);
  }

  @MessagePattern(BillingSubjects.recordUsageBatch)
  recordBatch(@Caller() ctx: CallerContext, @CommandBody() body: UsageBatchRequest): Promise<UsageBatchResponse> {
    return this.recordUsage.batch(ctx, body);
  }
}
