import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityUpdateMany } from '@app/database';
import { isUuid, Scope } from '../scope';
import { SubscriptionEntity } from './subscription.entity';

export interface SubscriptionFilters {
  planId?: number;
  status?: string;
  customerEmail?: string;
  limit: number;
  startingAfter?: string;
}

const updateSubscriptions = entityUpdateMany(SubscriptionEntity, 'subscriptions_update_many');
const updateAndRelease = entityUpdateMany(
  SubscriptionEntity,
  'subscriptions_update_release_many',
  'renewal_lease_until = NULL',
);

@Injectable()
export class SubscriptionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(manager: EntityManager, subscription: SubscriptionEntity): Promise<void> {
    await manager.insert(SubscriptionEntity, subscription);
  }

  async save(manager: EntityManager, subscription: SubscriptionEntity): Promise<void> {
    await manager.save(SubscriptionEntity, subscription);
  }

  /** Every column of each subscription, by id, in one statement (the rows locked by the caller). */
  updateMany(manager: EntityManager, subscriptions: readonly SubscriptionEntity[]): Promise<void> {
    return updateSubscriptions(manager, subscriptions);
  }

  /** As `updateMany`, freeing each one's renewal lease in the same row version (a recorded renewal step). */
  updateManyAndRelease(manager: EntityManager, subscriptions: readonly SubscriptionEntity[]): Promise<void> {
    return updateAndRelease(manager, subscriptions);
  }

  /** Any handle that is not a subscription of this scope finds nothing (404 upstream). */
  find(scope: Scope, id: string, manager: EntityManager = this.db.manager): Promise<SubscriptionEntity | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return manager.findOne(SubscriptionEntity, {
      where: { id, merchantCode: scope.merchantCode, environment: scope.environment },
    });
  }

  /** The row locked for a state change (FOR UPDATE, inside the caller's transaction). */
  findForUpdate(manager: EntityManager, scope: Scope, id: string): Promise<SubscriptionEntity | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return manager
      .createQueryBuilder(SubscriptionEntity, 's')
      .setLock('pessimistic_write')
      .where('s.id = :id AND s.merchant_code = :mc AND s.environment = :env', {
        id,
        mc: scope.merchantCode,
        env: scope.environment,
      })
      .getOne();
  }

  /** Children that follow their parent's lifecycle, locked, oldest first. */
  propagatingChildren(manager: EntityManager, parentId: string): Promise<SubscriptionEntity[]> {
    return manager
      .createQueryBuilder(SubscriptionEntity, 's')
      .setLock('pessimistic_write')
      .where('s.parent_subscription_id = :parentId AND s.propagate_lifecycle', { parentId })
      .orderBy('s.id', 'ASC')
      .getMany();
  }

  /** Newest first (ids are UUID v7), filtered by plan, status and customer email. */
  list(scope: Scope, f: SubscriptionFilters): Promise<SubscriptionEntity[]> {
    const qb = this.db
      .getRepository(SubscriptionEntity)
      .createQueryBuilder('s')
      .where('s.merchant_code = :mc AND s.environment = :env', { mc: scope.merchantCode, env: scope.environment })
      .orderBy('s.id', 'DESC')
      .limit(f.limit);
    if (f.planId !== undefined) qb.andWhere('s.plan_id = :planId', { planId: f.planId });
    if (f.status !== undefined) qb.andWhere('s.status = :status', { status: f.status });
    if (f.customerEmail !== undefined) {
      qb.andWhere('lower(s.customer_email) = lower(:email)', { email: f.customerEmail });
    }
    if (f.startingAfter !== undefined) qb.andWhere('s.id < :after', { after: f.startingAfter });
    return qb.getMany();
  }
}
