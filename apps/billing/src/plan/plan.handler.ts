import { MessagePattern } from '@nestjs/microservices';
import {
  BillingSubjects,
  CallerContext,
  CreatePlanRequest,
  ListPlansQuery,
  PlanIdCommand,
  PlanListItem,
  PlanView,
  UpdatePlanCommand,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { ArchivePlanUseCase } from './archive-plan.use-case';
import { CreatePlanUseCase } from './create-plan.use-case';
import { PlanQueries } from './plan-queries.service';
import { UpdatePlanUseCase } from './update-plan.use-case';

@CommandHandler()
export class PlanHandler {
  constructor(
    private readonly createUseCase: CreatePlanUseCase,
    private readonly updateUseCase: UpdatePlanUseCase,
    private readonly archiveUseCase: ArchivePlanUseCase,
    private readonly plans: PlanQueries,
  ) {}

  @MessagePattern(BillingSubjects.createPlan)
  create(@Caller() ctx: CallerContext, @CommandBody() body: CreatePlanRequest): Promise<PlanView> {
    return this.createUseCase.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.updatePlan)
  update(@Caller() ctx: CallerContext, @CommandBody() body: UpdatePlanCommand): Promise<PlanView> {
    return this.updateUseCase.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.archivePlan)
  archive(@Caller() ctx: CallerContext, @CommandBody() body: PlanIdCommand): Promise<PlanView> {
    return this.archiveUseCase.run(ctx, body);
  }

  /** Also asked by the payment-links service, to check a subscription link's plan. */
  @MessagePattern(BillingSubjects.getPlan)
  get(@Caller() ctx: CallerContext, @CommandBody() body: PlanIdCommand): Promise<PlanView> {
    return this.plans.get(ctx, body.id);
  }

  @MessagePattern(BillingSubjects.listPlans)
  list(@Caller() ctx: CallerContext, @CommandBody() query: ListPlansQuery): Promise<PlanListItem[]> {
    return this.plans.list(ctx, query);
  }
}
