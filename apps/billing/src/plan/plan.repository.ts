import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Scope } from '../scope';
import { PlanEntity } from './plan.entity';

/** Subscriptions that count as subscribers of a plan: every one not cancelled or completed. */
const LIVE = `status NOT IN ('cancelled', 'completed')`;

@Injectable()
export class PlanRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(plan: Omit<PlanEntity, 'id'>, manager: EntityManager = this.db.manager): Promise<PlanEntity> {
    const rows: Array<{ id: string }> = await manager.query(`SELECT nextval('plans_id_seq') AS id`);
    const saved = { ...plan, id: Number(rows[0].id) };
    await manager.insert(PlanEntity, saved);
    return saved;
  }

  async save(plan: PlanEntity, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.save(PlanEntity, plan);
  }

  find(scope: Scope, id: number, manager: EntityManager = this.db.manager): Promise<PlanEntity | null> {
    if (!Number.isSafeInteger(id) || id < 1) return Promise.resolve(null);
    return manager.findOne(PlanEntity, {
      where: { id, merchantCode: scope.merchantCode, environment: scope.environment },
    });
  }

  /** Plans by id, any scope (the scheduler's batch; each subscription checks its plan is its scope's). */
  async findMany(manager: EntityManager, ids: readonly number[]): Promise<Map<number, PlanEntity>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await manager
      .createQueryBuilder(PlanEntity, 'p')
      .where('p.id IN (:...ids)', { ids: unique })
      .getMany();
    return new Map(rows.map((p) => [p.id, p]));
  }

  /** Locks the plan row (an archive or update racing a new subscriber). */
  async findForUpdate(manager: EntityManager, scope: Scope, id: number): Promise<PlanEntity | null> {
    return manager
      .createQueryBuilder(PlanEntity, 'p')
      .setLock('pessimistic_write')
      .where('p.id = :id AND p.merchant_code = :mc AND p.environment = :env', {
        id,
        mc: scope.merchantCode,
        env: scope.environment,
      })
      .getOne();
  }

  /** Newest first; `country` keeps plans available there plus the global ones. */
  async list(
    scope: Scope,
    o: { country?: string; limit: number; startingAfter?: number },
  ): Promise<Array<{ plan: PlanEntity; subscriberCount: number }>> {
    const qb = this.db
      .getRepository(PlanEntity)
      .createQueryBuilder('p')
      .addSelect(`(SELECT count(*) FROM subscriptions s WHERE s.plan_id = p.id AND s.${LIVE})`, 'subscriber_count')
      .where('p.merchant_code = :mc AND p.environment = :env', { mc: scope.merchantCode, env: scope.environment })
      .orderBy('p.id', 'DESC')
      .limit(o.limit);
    if (o.country) {
      qb.andWhere(`(p.available_countries = '{}' OR :country = ANY(p.available_countries))`, { country: o.country });
    }
    if (o.startingAfter !== undefined) qb.andWhere('p.id < :after', { after: o.startingAfter });
    const { entities, raw } = await qb.getRawAndEntities<{ subscriber_count: string }>();
    return entities.map((plan, i) => ({ plan, subscriberCount: Number(raw[i].subscriber_count) }));
  }
}
