import { Injectable } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Clock } from '@app/clock';
import { BillingSubjects, CallerContext, RecoveryPolicyRequest, RecoveryPolicyView } from '@app/contracts';
import { IdempotencyService } from '@app/idempotency';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { rulesOf } from './recovery-policy';
import { RecoveryPolicyRepository } from './recovery-policy.repository';

/** The merchant's recovery policy: the current version, and a change that adds the next one. */
@Injectable()
export class RecoveryPolicyService {
  constructor(
    private readonly policies: RecoveryPolicyRepository,
    private readonly idempotency: IdempotencyService,
    private readonly clock: Clock,
  ) {}

  put(ctx: CallerContext, body: RecoveryPolicyRequest): Promise<RecoveryPolicyView> {
    const { merchantCode: _merchantCode, ...request } = body;
    const rules = rulesOf(request);
    return this.idempotency.transaction(ctx, 'recovery-policy.put', body, 200, (manager) =>
      this.policies.insertNext(manager, ctx, rules, this.clock.now(ctx)),
    );
  }

  get(ctx: CallerContext): Promise<RecoveryPolicyView> {
    return this.policies.current(ctx);
  }
}

@CommandHandler()
export class RecoveryPolicyHandler {
  constructor(private readonly service: RecoveryPolicyService) {}

  @MessagePattern(BillingSubjects.putRecoveryPolicy)
  put(@Caller() ctx: CallerContext, @CommandBody() body: RecoveryPolicyRequest): Promise<RecoveryPolicyView> {
    return this.service.put(ctx, body);
  }

  @MessagePattern(BillingSubjects.getRecoveryPolicy)
  get(@Caller() ctx: CallerContext): Promise<RecoveryPolicyView> {
    return this.service.get(ctx);
  }
}
