import { CallerContext, UsageBatchRequest, UsageBatchResponse } from '@app/contracts';
import { UseCase } from '@app/idempotency';
import { UsageRecorder } from './usage-recorder';

/** POST /v1/usage/batch: up to 1,000 events, each answered as alone, each idempotent on its own `idempotencyKey`. */
@UseCase({ operation: 'usage.record-batch', idempotency: 'none' })
export class RecordUsageBatchUseCase {
  constructor(private readonly recorder: UsageRecorder) {}

  run(ctx: CallerContext, body: UsageBatchRequest): Promise<UsageBatchResponse> {
    return this.recorder.batch(ctx, body);
  }
}
