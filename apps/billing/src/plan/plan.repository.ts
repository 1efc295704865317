import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityInsert, entitySelect, entityUpdateMany, runStatement, statement } from '@app/database';
import { Scope } from '../scope';
import { PlanEntity } from './plan.entity';

const NEXT_ID = statement('plans_next_id', `SELECT nextval('plans_id_seq') AS id`);
const insertPlan = entityInsert(PlanEntity, 'plans_insert');
const updatePlans = entityUpdateMany(PlanEntity, 'plans_update');
const inScope = entitySelect(PlanEntity, 'plans_in_scope', 'id = $1 AND merchant_code = $2 AND environment = $3');
const byIds = entitySelect(PlanEntity, 'plans_by_ids', 'id = ANY($1)');
const lockedInScope = entitySelect(
  PlanEntity,
  'plans_lock_in_scope',
  'id = $1 AND merchant_code = $2 AND environment = $3 FOR UPDATE',
);
/** $3: a country (plans available there and the global ones) or null; $4: the last id of the previous page or null. */
const page = entitySelect(
  PlanEntity,
  'plans_page',
  `merchant_code = $1 AND environment = $2
   AND ($3::text IS NULL OR available_countries = '{}' OR $3 = ANY(available_countries))
   AND ($4::bigint IS NULL OR id < $4)
   ORDER BY id DESC LIMIT $5`,
);
/** Subscriptions that count as subscribers of a plan: every one not cancelled or completed. */
const SUBSCRIBERS = statement(
  'plans_subscriber_counts',
  `SELECT plan_id, count(*)::int AS n FROM subscriptions
    WHERE plan_id = ANY($1) AND status NOT IN ('cancelled', 'completed')
    GROUP BY plan_id`,
);

@Injectable()
export class PlanRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(plan: Omit<PlanEntity, 'id'>, manager: EntityManager = this.db.manager): Promise<PlanEntity> {
    const [{ id }] = await runStatement<{ id: string }>(manager, NEXT_ID, []);
    const saved = Object.assign(new PlanEntity(), plan, { id: Number(id) });
    await insertPlan(manager, saved);
    return saved;
  }

  /** Every column of the plan, by id. */
  save(plan: PlanEntity, manager: EntityManager = this.db.manager): Promise<void> {
    return updatePlans(manager, [plan]);
  }

  async find(scope: Scope, id: number, manager: EntityManager = this.db.manager): Promise<PlanEntity | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const [plan] = await inScope(manager, [id, scope.merchantCode, scope.environment]);
    return plan ?? null;
  }

  /** Plans by id, any scope (the scheduler's batch; each subscription checks its plan is its scope's). */
  async findMany(manager: EntityManager, ids: readonly number[]): Promise<Map<number, PlanEntity>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await byIds(manager, [unique]);
    return new Map(rows.map((p) => [p.id, p]));
  }

  /** Locks the plan row (an archive or update racing a new subscriber). */
  async findForUpdate(manager: EntityManager, scope: Scope, id: number): Promise<PlanEntity | null> {
    const [plan] = await lockedInScope(manager, [id, scope.merchantCode, scope.environment]);
    return plan ?? null;
  }

  /** Newest first; `country` keeps plans available there plus the global ones. */
  async list(
    scope: Scope,
    o: { country?: string; limit: number; startingAfter?: number },
  ): Promise<Array<{ plan: PlanEntity; subscriberCount: number }>> {
    const values = [scope.merchantCode, scope.environment, o.country || null, o.startingAfter ?? null, o.limit];
    const plans = await page(this.db, values);
    if (!plans.length) return [];
    const counts = await runStatement<{ plan_id: string; n: number }>(this.db, SUBSCRIBERS, [plans.map((p) => p.id)]);
    const byPlan = new Map(counts.map((c) => [Number(c.plan_id), c.n]));
    return plans.map((plan) => ({ plan, subscriberCount: byPlan.get(plan.id) ?? 0 }));
  }
}
