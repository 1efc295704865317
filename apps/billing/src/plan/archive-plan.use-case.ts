import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, PlanIdCommand, PlanView } from '@app/contracts';
import { TransactionUseCase, UseCase } from '@app/idempotency';
import { PlanQueries } from './plan-queries.service';
import { PlanRepository } from './plan.repository';
import { toPlanView } from './plan.view';

/** DELETE /v1/plans/{id}: archived plans take no new subscribers; existing ones continue. Archiving twice is a no-op. */
@UseCase({ operation: 'plan.archive', idempotency: 'transaction', request: ({ id }: PlanIdCommand) => ({ id }) })
export class ArchivePlanUseCase extends TransactionUseCase<PlanIdCommand, PlanView> {
  constructor(
    private readonly plans: PlanRepository,
    private readonly queries: PlanQueries,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(ctx: CallerContext, { id }: PlanIdCommand, manager: EntityManager): Promise<PlanView> {
    const plan = await this.queries.require(ctx, id, manager);
    if (!plan.archivedAt) {
      const now = this.clock.now(ctx);
      plan.archivedAt = now;
      plan.updatedAt = now;
      await this.plans.save(plan, manager);
    }
    return toPlanView(plan);
  }
}
