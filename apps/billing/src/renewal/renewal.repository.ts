import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { runStatement, statement } from '@app/database';
import { InvoiceEntity } from '../invoice/invoice.entity';
import { MeterEntity } from '../meter/meter.entity';
import type { Scope } from '../scope';
import { SubscriptionEntity } from '../subscription/subscription.entity';

/** The statuses the scheduler has work for (the `subscriptions_due` partial index covers exactly these). */
const DUE = `status IN ('pending', 'trialing', 'active', 'past_due')`;

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
   RETURNING s.id, s.next_billing_date AS "dueAt"`,
);

const RELEASE = statement('renewal_release', 'UPDATE subscriptions SET renewal_lease_until = NULL WHERE id = $1');

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
  'SELECT billed_through AS "billedThrough" FROM usage_billed_through WHERE subscription_id = $1',
);

export interface DueRow {
  id: string;
  dueAt: Date;
}

/** The scheduler's SQL: claiming due subscriptions under a lease, and what a renewal step reads locked. */
@Injectable()
export class RenewalRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Due rows, earliest first, leased until `leaseUntil` (one short transaction of its own). */
  async claim(upTo: Date, realNow: Date, limit: number, leaseUntil: Date, scope?: Scope): Promise<DueRow[]> {
    const rows = await runStatement<{ id: string; dueAt: Date }>(this.db, CLAIM, [
      upTo,
      realNow,
      limit,
      leaseUntil,
      scope?.merchantCode ?? null,
      scope?.environment ?? null,
    ]);
    return rows.map((r) => ({ id: r.id, dueAt: new Date(r.dueAt) })).sort((a, b) => +a.dueAt - +b.dueAt);
  }

  /** How many of a scope's subscriptions are due by `upTo`, leased or not (a clock advance waits for them). */
  async dueCount(scope: Scope, upTo: Date): Promise<number> {
    const [row] = await runStatement<{ n: number }>(this.db, STILL_DUE, [upTo, scope.merchantCode, scope.environment]);
    return row.n;
  }

  async release(id: string, manager: EntityManager | DataSource = this.db): Promise<void> {
    await runStatement(manager, RELEASE, [id]);
  }

  async leaseOne(id: string, realNow: Date, leaseUntil: Date): Promise<boolean> {
    return (await runStatement(this.db, LEASE_ONE, [id, realNow, leaseUntil])).length > 0;
  }

  /** The subscription locked for one step (any scope: the scheduler is not a merchant's caller). */
  lockSubscription(manager: EntityManager, id: string): Promise<SubscriptionEntity | null> {
    return manager
      .createQueryBuilder(SubscriptionEntity, 's')
      .setLock('pessimistic_write')
      .where('s.id = :id', { id })
      .getOne();
  }

  lockInvoice(manager: EntityManager, id: string): Promise<InvoiceEntity | null> {
    return manager
      .createQueryBuilder(InvoiceEntity, 'i')
      .setLock('pessimistic_write')
      .where('i.id = :id', { id })
      .getOne();
  }

  /** Where the previous rating of a subscription's usage stopped (null: never rated). */
  async billedThrough(manager: EntityManager, subscriptionId: string): Promise<Date | null> {
    const [row] = await runStatement<{ billedThrough: Date }>(manager, BILLED_THROUGH, [subscriptionId]);
    return row ? new Date(row.billedThrough) : null;
  }

  /** The plan's meters, in the plan's order of meter codes. */
  async meters(manager: EntityManager, scope: Scope, codes: string[]): Promise<MeterEntity[]> {
    if (!codes.length) return [];
    const rows = await manager
      .createQueryBuilder(MeterEntity, 'm')
      .where('m.merchant_code = :mc AND m.environment = :env AND m.code IN (:...codes)', {
        mc: scope.merchantCode,
        env: scope.environment,
        codes,
      })
      .getMany();
    return codes.flatMap((code) => rows.filter((m) => m.code === code));
  }
}
