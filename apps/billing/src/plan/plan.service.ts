import { Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import {
  CallerContext,
  CreatePlanRequest,
  ListPlansQuery,
  PlanListItem,
  PlanView,
  UpdatePlanCommand,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { IdempotencyService } from '@app/idempotency';
import { assertCurrency } from '@app/money';
import { MeterRepository } from '../meter/meter.repository';
import { pageLimit } from '../scope';
import { EntityManager } from 'typeorm';
import { PlanEntity } from './plan.entity';
import { PlanRepository } from './plan.repository';
import { toPlanListItem, toPlanView } from './plan.view';

const countries = (list?: string[]): string[] => [...new Set((list ?? []).map((c) => c.toUpperCase()))].sort();

/**
 * Plans: create with defaults, patch the mutable fields, archive, look up, list. Each change is one transaction
 * that claims the caller's Idempotency-Key and stores its answer, so a retry replays it and changes nothing.
 */
@Injectable()
export class PlanService {
  constructor(
    private readonly plans: PlanRepository,
    private readonly meters: MeterRepository,
    private readonly idempotency: IdempotencyService,
    private readonly clock: Clock,
  ) {}

  create(ctx: CallerContext, body: CreatePlanRequest): Promise<PlanView> {
    return this.idempotency.transaction(ctx, 'plan.create', body, 201, (manager) => this.insert(ctx, body, manager));
  }

  update(ctx: CallerContext, body: UpdatePlanCommand): Promise<PlanView> {
    return this.idempotency.transaction(ctx, 'plan.update', body, 200, (manager) => this.patch(ctx, body, manager));
  }

  /** DELETE: archived plans take no new subscribers; existing ones continue. Archiving twice is a no-op. */
  archive(ctx: CallerContext, id: number): Promise<PlanView> {
    return this.idempotency.transaction(ctx, 'plan.archive', { id }, 200, (manager) => this.archived(ctx, id, manager));
  }

  private async insert(ctx: CallerContext, body: CreatePlanRequest, manager: EntityManager): Promise<PlanView> {
    const isoExponent = assertCurrency(body.currency, 'currency');
    const exponent = body.exponent ?? isoExponent;
    if (exponent !== isoExponent) {
      throw new DomainError('INVALID_EXPONENT', `${body.currency} has exponent ${isoExponent}`, 'exponent');
    }
    const introCycles = body.introBillingCycles ?? 0;
    if (body.introAmount !== undefined && introCycles < 1) {
      throw DomainError.validation('introAmount needs introBillingCycles of at least 1', 'introBillingCycles');
    }
    if (introCycles > 0 && body.introAmount === undefined) {
      throw DomainError.validation('introBillingCycles needs introAmount', 'introAmount');
    }
    const meterCodes = [...new Set(body.meterCodes ?? [])];
    const missing = await this.meters.missingCodes(ctx, meterCodes, manager);
    if (missing) throw new DomainError('NOT_FOUND', `No such meter: ${missing}`, 'meterCodes');
    const now = this.clock.now(ctx);
    const plan = await this.plans.insert(
      {
        merchantCode: ctx.merchantCode,
        environment: ctx.environment,
        merchantId: ctx.merchantId ?? null,
        name: body.name,
        description: body.description ?? null,
        interval: body.interval,
        intervalCount: body.intervalCount ?? 1,
        amount: body.amount,
        currency: body.currency,
        exponent,
        trialPeriodDays: body.trialPeriodDays ?? 0,
        introAmount: body.introAmount ?? null,
        introBillingCycles: introCycles,
        maxBillingCycles: body.maxBillingCycles ?? 0,
        availableCountries: countries(body.availableCountries),
        isActive: body.isActive ?? true,
        meterCodes,
        archivedAt: null,
        createdAt: now,
        updatedAt: now,
      },
      manager,
    );
    return toPlanView(plan);
  }

  private async patch(ctx: CallerContext, body: UpdatePlanCommand, manager: EntityManager): Promise<PlanView> {
    const plan = await this.require(ctx, body.id, manager);
    if (body.name !== undefined) plan.name = body.name;
    if (body.description !== undefined) plan.description = body.description;
    if (body.isActive !== undefined) plan.isActive = body.isActive;
    if (body.availableCountries !== undefined) plan.availableCountries = countries(body.availableCountries);
    plan.updatedAt = this.clock.now(ctx);
    await this.plans.save(plan, manager);
    return toPlanView(plan);
  }

  private async archived(ctx: CallerContext, id: number, manager: EntityManager): Promise<PlanView> {
    const plan = await this.require(ctx, id, manager);
    if (!plan.archivedAt) {
      const now = this.clock.now(ctx);
      plan.archivedAt = now;
      plan.updatedAt = now;
      await this.plans.save(plan, manager);
    }
    return toPlanView(plan);
  }

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
