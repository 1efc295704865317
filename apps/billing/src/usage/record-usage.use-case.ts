import { CallerContext, UsageEventView, UsageRequest } from '@app/contracts';
import { UseCase } from '@app/idempotency';
import { UsageRecorder } from './usage-recorder';

/**
 * POST /v1/usage: one metered event, idempotent on (meter, Idempotency-Key) in the usage table itself (a replay
 * answers the recorded event with `duplicate: true`), so the key is not kept by the idempotency library.
 */
@UseCase({ operation: 'usage.record', idempotency: 'none' })
export class RecordUsageUseCase {
  constructor(private readonly recorder: UsageRecorder) {}

  run(ctx: CallerContext, body: UsageRequest): Promise<UsageEventView> {
    return this.recorder.one(ctx, body);
  }
}
