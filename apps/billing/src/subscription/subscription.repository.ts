import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityInsert, entitySelect, entityUpdateMany } from '@app/database';
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

const insertSubscription = entityInsert(SubscriptionEntity, 'subscriptions_insert');
const inScope = entitySelect(
  SubscriptionEntity,
  'subscriptions_in_scope',
  'id = $1 AND merchant_code = $2 AND environment = $3',
);
const lockedInScope = entitySelect(
  SubscriptionEntity,
  'subscriptions_lock_in_scope',
  'id = $1 AND merchant_code = $2 AND environment = $3 FOR UPDATE',
);
const lockedChildren = entitySelect(
  SubscriptionEntity,
  'subscriptions_lock_propagating_children',
  'parent_subscription_id = $1 AND propagate_lifecycle ORDER BY id FOR UPDATE',
);
/** $3 plan, $4 status, $5 customer email, $6 the last id of the previous page: each null when not given. */
const page = entitySelect(
  SubscriptionEntity,
  'subscriptions_page',
  `merchant_code = $1 AND environment = $2
   AND ($3::bigint IS NULL OR plan_id = $3)
   AND ($4::text IS NULL OR status = $4)
   AND ($5::text IS NULL OR lower(customer_email) = lower($5))
   AND ($6::uuid IS NULL OR id < $6)
   ORDER BY id DESC LIMIT $7`,
);

@Injectable()
export class SubscriptionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Sent at once, checked with the commit of the caller's transaction. */
  insert(manager: EntityManager, subscription: SubscriptionEntity): Promise<void> {
    return insertSubscription(manager, subscription);
  }

  /** Every column of the subscription (but those written once), by id. */
  save(manager: EntityManager, subscription: SubscriptionEntity): Promise<void> {
    return updateSubscriptions(manager, [subscription]);
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
  async find(scope: Scope, id: string, manager: EntityManager = this.db.manager): Promise<SubscriptionEntity | null> {
    if (!isUuid(id)) return null;
    const [s] = await inScope(manager, [id, scope.merchantCode, scope.environment]);
    return s ?? null;
  }

  /** The row locked for a state change (FOR UPDATE, inside the caller's transaction). */
  async findForUpdate(manager: EntityManager, scope: Scope, id: string): Promise<SubscriptionEntity | null> {
    if (!isUuid(id)) return null;
    const [s] = await lockedInScope(manager, [id, scope.merchantCode, scope.environment]);
    return s ?? null;
  }

  /** Children that follow their parent's lifecycle, locked, oldest first. */
  propagatingChildren(manager: EntityManager, parentId: string): Promise<SubscriptionEntity[]> {
    return lockedChildren(manager, [parentId]);
  }

  /** Newest first (ids are UUID v7), filtered by plan, status and customer email. */
  list(scope: Scope, f: SubscriptionFilters): Promise<SubscriptionEntity[]> {
    return page(this.db, [
      scope.merchantCode,
      scope.environment,
      f.planId ?? null,
      f.status ?? null,
      f.customerEmail ?? null,
      f.startingAfter ?? null,
      f.limit,
    ]);
  }
}
