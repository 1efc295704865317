import { Injectable } from '@nestjs/common';
import { CallerContext, ListPlansQuery, PlanListItem, PlanView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { pageLimit } from '../scope';
import { EntityManager } from 'typeorm';
import { PlanEntity } from './plan.entity';
import { PlanRepository } from './plan.repository';
import { toPlanListItem, toPlanView } from './plan.view';

/** A plan's countries: upper case, each once, sorted. */
export const countries = (list?: string[]): string[] => [...new Set((list ?? []).map((c) => c.toUpperCase()))].sort();

/** Plans looked up and listed (their changes: create-plan, update-plan and archive-plan use cases). */
@Injectable()
export class PlanQueries {
  constructor(private readonly plans: PlanRepository) {}

  async get(ctx: CallerContext, id: number): Promise<PlanView> {
    return toPlanView(await this.require(ctx, id));
  }

  async list(ctx: CallerContext, query: ListPlansQuery): Promise<PlanListItem[]> {
    let startingAfter: number | undefined;
    if (query.startingAfter !== undefined) {
      startingAfter = Number(query.startingAfter);
      if (!Number.isSafeInteger(startingAfter) || startingAfter < 1) {
        throw DomainError.validation('startingAfter must be a plan id', 'startingAfter');
      }
    }
    const rows = await this.plans.list(ctx, { country: query.country, limit: pageLimit(query.limit), startingAfter });
    return rows.map((r) => toPlanListItem(r.plan, r.subscriberCount));
  }

  async require(ctx: CallerContext, id: number, manager?: EntityManager): Promise<PlanEntity> {
    const plan = await this.plans.find(ctx, id, manager);
    if (!plan) throw DomainError.notFound('plan', 'id');
    return plan;
  }
}
