import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deferStatement, entitySelect, runQueueClaim, runStatement, statement } from '@app/database';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { MeterEntity } from '../meter/meter.entity';
import { PlanEntity } from '../plan/plan.entity';
import type { Scope } from '../scope';
import { SubscriptionEntity } from '../subscription/subscription.entity';

/**
 * What the scheduler has work for: the statuses the `subscriptions_due` partial index covers, and not parked
 * (a renewal that failed for a reason retrying cannot change: renewal-parking.service.ts).
 */
const DUE = `status IN ('pending', 'trialing', 'active', 'past_due') AND renewal_parked_at IS NULL`;

/** Subscriptions due by real now, leased or not, and how long the earliest has been due (index `subscriptions_due`). */
export const RENEWAL_BACKLOG = statement(
  'renewal_backlog',
  `SELECT count(*)::int AS n, COALESCE(EXTRACT(EPOCH FROM now() - min(next_billing_date)), 0)::float8 AS age
     FROM subscriptions WHERE ${DUE} AND next_billing_date <= now()`,
);

/**
 * Claims up to $3 subscriptions due by $1 whose lease is free (or ran out before $2, real time) and leases
 * them until $4. SKIP LOCKED: replicas and the periodic loop claim disjoint rows, with no leader.
 * $5/$6 narrow it to one merchant's sandbox (a clock advance), or are null (the periodic loop: every scope).
 */
const CLAIM = statement(
  'renewal_claim',
  `WITH due AS (
     SELECT id FROM subscriptions
      WHERE ${DUE} AND next_billing_date <= $1
        AND (renewal_lease_until IS NULL OR renewal_lease_until < $2)
        AND ($5::text IS NULL OR (merchant_code = $5 AND environment = $6))
      ORDER BY next_billing_date
      LIMIT $3
      FOR UPDATE SKIP LOCKED)
   UPDATE subscriptions s SET renewal_lease_until = $4
     FROM due WHERE s.id = due.id
   RETURNING s.id, s.next_billing_date AS "dueAt", s.trace_parent AS "traceParent"`,
);

const RELEASE = statement(
  'renewal_release',
  'UPDATE subscriptions SET renewal_lease_until = NULL WHERE id = ANY($1::uuid[])',
);

/** Leases one subscription for a forced retry; nothing when the scheduler (or another retry) holds it. */
const LEASE_ONE = statement(
  'renewal_lease_one',
  `UPDATE subscriptions SET renewal_lease_until = $3
    WHERE id = $1 AND (renewal_lease_until IS NULL OR renewal_lease_until < $2)
   RETURNING id`,
);

const STILL_DUE = statement(
  'renewal_still_due',
  `SELECT count(*)::int AS n FROM subscriptions
    WHERE ${DUE} AND next_billing_date <= $1 AND merchant_code = $2 AND environment = $3`,
);

const BILLED_THROUGH = statement(
  'renewal_billed_through',
  `SELECT subscription_id AS "subscriptionId", billed_through AS "billedThrough"
     FROM usage_billed_through WHERE subscription_id = ANY($1::uuid[])`,
);
/** FOR NO KEY UPDATE: nothing here changes a key (see lockSubscriptions). */
const lockedSubscriptions = entitySelect(
  SubscriptionEntity,
  'renewal_lock_subscriptions',
  'id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE',
);
const lockedInvoices = entitySelect(
  InvoiceEntity,
  'renewal_lock_invoices',
  'id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE',
);
const metersOf = entitySelect(MeterEntity, 'renewal_meters', 'merchant_code = ANY($1) AND code = ANY($2)');

export interface DueRow {
  id: string;
  dueAt: Date;
  /** The traceparent of the request that created the subscription (null with tracing off). */
  traceParent: string | null;
}

/** The scheduler's SQL: claiming due subscriptions under a lease, and what a renewal step reads locked. */
@Injectable()
export class RenewalRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Due rows, earliest first, leased until `leaseUntil` (one short transaction of its own). */
  async claim(upTo: Date, realNow: Date, limit: number, leaseUntil: Date, scope?: Scope): Promise<DueRow[]> {
    const rows = await runQueueClaim<DueRow>(this.db, CLAIM, [
      upTo,
      realNow,
      limit,
      leaseUntil,
      scope?.merchantCode ?? null,
      scope?.environment ?? null,
    ]);
    return rows.map((r) => ({ ...r, dueAt: new Date(r.dueAt) })).sort((a, b) => +a.dueAt - +b.dueAt);
  }

  /** How many of a scope's subscriptions are due by `upTo`, leased or not (a clock advance waits for them). */
  async dueCount(scope: Scope, upTo: Date): Promise<number> {
    const [row] = await runStatement<{ n: number }>(this.db, STILL_DUE, [upTo, scope.merchantCode, scope.environment]);
    return row.n;
  }

  async release(id: string, manager: EntityManager | DataSource = this.db): Promise<void> {
    await this.releaseMany([id], manager);
  }

  /** Frees the leases (inside a pipelined transaction: sent with the commit). */
  async releaseMany(ids: readonly string[], manager: EntityManager | DataSource = this.db): Promise<void> {
    if (!ids.length) return;
    if (manager instanceof EntityManager) await deferStatement(manager, RELEASE, [ids]);
    else await runStatement(manager, RELEASE, [ids]);
  }

  async leaseOne(id: string, realNow: Date, leaseUntil: Date): Promise<boolean> {
    return (await runStatement(this.db, LEASE_ONE, [id, realNow, leaseUntil])).length > 0;
  }

  /**
   * The subscriptions of a batch locked for their steps (any scope: the scheduler is not a merchant's caller),
   * in id order so that two lockers never wait on each other in a cycle. FOR NO KEY UPDATE: nothing here
   * changes a key, so foreign-key checks of other writers (an invoice insert) are not blocked.
   */
  lockSubscriptions(manager: EntityManager, ids: readonly string[]): Promise<SubscriptionEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return lockedSubscriptions(manager, [ids]);
  }

  async lockSubscription(manager: EntityManager, id: string): Promise<SubscriptionEntity | null> {
    const [s] = await this.lockSubscriptions(manager, [id]);
    return s ?? null;
  }

  /** Invoices locked by id (id order). */
  lockInvoices(manager: EntityManager, ids: readonly string[]): Promise<InvoiceEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return lockedInvoices(manager, [ids]);
  }

  /** Where the previous rating of each subscription's usage stopped (absent: never rated). */
  async billedThrough(manager: EntityManager, subscriptionIds: readonly string[]): Promise<Map<string, Date>> {
    if (!subscriptionIds.length) return new Map();
    const rows = await runStatement<{ subscriptionId: string; billedThrough: Date }>(manager, BILLED_THROUGH, [
      subscriptionIds,
    ]);
    return new Map(rows.map((r) => [r.subscriptionId, new Date(r.billedThrough)]));
  }

  /** The meters of the plans' meter codes, each scope's own: `meterFor(plan)` answers a plan's, in its order. */
  async meters(manager: EntityManager, plans: readonly PlanEntity[]): Promise<(plan: PlanEntity) => MeterEntity[]> {
    const wanted = plans.filter((p) => p.meterCodes.length);
    if (!wanted.length) return () => [];
    const codes = [...new Set(wanted.flatMap((p) => p.meterCodes))];
    const merchants = [...new Set(wanted.map((p) => p.merchantCode))];
    const rows = await metersOf(manager, [merchants, codes]);
    return (plan) =>
      plan.meterCodes.flatMap((code) =>
        rows.filter(
          (m) => m.code === code && m.merchantCode === plan.merchantCode && m.environment === plan.environment,
        ),
      );
  }
}
