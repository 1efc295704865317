import { MessagePattern } from '@nestjs/microservices';
import { BillingSubjects, CallerContext, RecoveryPolicyRequest, RecoveryPolicyView } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { PutRecoveryPolicyUseCase } from './put-recovery-policy.use-case';
import { RecoveryPolicyRepository } from './recovery-policy.repository';

/** The merchant's recovery policy: the current version, and a change that adds the next one. */
@CommandHandler()
export class RecoveryPolicyHandler {
  constructor(
    private readonly putUseCase: PutRecoveryPolicyUseCase,
    private readonly policies: RecoveryPolicyRepository,
  ) {}

  @MessagePattern(BillingSubjects.putRecoveryPolicy)
  put(@Caller() ctx: CallerContext, @CommandBody() body: RecoveryPolicyRequest): Promise<RecoveryPolicyView> {
    return this.putUseCase.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.getRecoveryPolicy)
  get(@Caller() ctx: CallerContext): Promise<RecoveryPolicyView> {
    return this.policies.current(ctx);
  }
}
