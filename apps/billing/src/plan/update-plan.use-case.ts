import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, PlanView, UpdatePlanCommand } from '@app/contracts';
import { TransactionUseCase, UseCase } from '@app/idempotency';
import { countries, PlanQueries } from './plan-queries.service';
import { PlanRepository } from './plan.repository';
import { toPlanView } from './plan.view';

/** PATCH /v1/plans/{id}: the mutable fields (name, description, active, countries). */
@UseCase({ operation: 'plan.update', idempotency: 'transaction' })
export class UpdatePlanUseCase extends TransactionUseCase<UpdatePlanCommand, PlanView> {
  constructor(
    private readonly plans: PlanRepository,
    private readonly queries: PlanQueries,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(ctx: CallerContext, body: UpdatePlanCommand, manager: EntityManager): Promise<PlanView> {
    const plan = await this.queries.require(ctx, body.id, manager);
    if (body.name !== undefined) plan.name = body.name;
    if (body.description !== undefined) plan.description = body.description;
    if (body.isActive !== undefined) plan.isActive = body.isActive;
    if (body.availableCountries !== undefined) plan.availableCountries = countries(body.availableCountries);
    plan.updatedAt = this.clock.now(ctx);
    await this.plans.save(plan, manager);
    return toPlanView(plan);
  }
}
