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
import { RecordUsageBatchUseCase } from './record-usage-batch.use-case';
import { RecordUsageUseCase } from './record-usage.use-case';

@CommandHandler()
export class UsageHandler {
  constructor(
    private readonly recordUsage: RecordUsageUseCase,
    private readonly recordUsageBatch: RecordUsageBatchUseCase,
  ) {}

  @MessagePattern(BillingSubjects.recordUsage)
  record(@Caller() ctx: CallerContext, @CommandBody() body: UsageRequest): Promise<UsageEventView> {
    return this.recordUsage.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.recordUsageBatch)
  recordBatch(@Caller() ctx: CallerContext, @CommandBody() body: UsageBatchRequest): Promise<UsageBatchResponse> {
    return this.recordUsageBatch.run(ctx, body);
  }
}
