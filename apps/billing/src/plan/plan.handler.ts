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
import { PlanService } from './plan.service';

@CommandHandler()
export class PlanHandler {
  constructor(private readonly plans: PlanService) {}

  @MessagePattern(BillingSubjects.createPlan)
  create(@Caller() ctx: CallerContext, @CommandBody() body: CreatePlanRequest): Promise<PlanView> {
    return this.plans.create(ctx, body);
  }

  @MessagePattern(BillingSubjects.updatePlan)
  update(@Caller() ctx: CallerContext, @CommandBody() body: UpdatePlanCommand): Promise<PlanView> {
    return this.plans.update(ctx, body);
  }

  @MessagePattern(BillingSubjects.archivePlan)
  archive(@Caller() ctx: CallerContext, @CommandBody() body: PlanIdCommand): Promise<PlanView> {
    return this.plans.archive(ctx, body.id);
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
