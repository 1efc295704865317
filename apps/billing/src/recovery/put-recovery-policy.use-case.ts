import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, RecoveryPolicyRequest, RecoveryPolicyView, RecoveryRules } from '@app/contracts';
import { TransactionUseCase, UseCase } from '@app/idempotency';
import { rulesOf } from './recovery-policy';
import { RecoveryPolicyRepository } from './recovery-policy.repository';

/** PUT /v1/recovery-policy: the merchant's rules checked, then added as the policy's next version. */
@UseCase({ operation: 'recovery-policy.put', idempotency: 'transaction' })
export class PutRecoveryPolicyUseCase extends TransactionUseCase<
  RecoveryPolicyRequest,
  RecoveryPolicyView,
  RecoveryRules
> {
  constructor(
    private readonly policies: RecoveryPolicyRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  /** The rules are checked before the key is claimed. */
  protected override prepare(_ctx: CallerContext, body: RecoveryPolicyRequest): Promise<RecoveryRules> {
    const { merchantCode: _merchantCode, ...request } = body;
    return Promise.resolve(rulesOf(request));
  }

  protected execute(
    ctx: CallerContext,
    _body: RecoveryPolicyRequest,
    manager: EntityManager,
    rules: RecoveryRules,
  ): Promise<RecoveryPolicyView> {
    return this.policies.insertNext(manager, ctx, rules, this.clock.now(ctx));
  }
}
