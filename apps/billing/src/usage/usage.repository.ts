import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { deferQuery, deferStatement, runStatement, statement } from '@app/database';
import type { Scope } from '../scope';
import type { Aggregation } from './aggregate';
import { MeterRating, UsageBound } from './usage-bound';

/**
 * Key space of the advisory locks between usage ingestion and rating (`pg_advisory_xact_lock(class, key)`),
 * so they cannot collide with another feature's locks.
 */
const USAGE_LOCK_CLASS = 0x75736167; // "usag"
/**
 * Subscriptions share this many lock keys (by hash): a batch of 1,000 subscriptions then takes at most 64
 * locks, where one each could exhaust PostgreSQL's shared lock table (64 per connection by default) under a
 * few concurrent batches. Two subscriptions in one bucket only wait for each other while one is rated.
 */
const LOCK_BUCKETS = 64;
/** Rows each (subscription, meter) pair's unbilled totals are spread over (migrations/1767500000000-usage-open-totals.ts). */
const TOTALS_SHARDS = 8;

/**
 * Ingestion holds its subscriptions' buckets shared, a renewal that rates a period holds its subscription's
 * exclusively: usage cannot be accepted into a period while (or after) it is rated. Sorted keys, so two
 * transactions never wait on each other in a cycle.
 */
const LOCK_SHARED = statement(
  'usage_lock_shared',
  `SELECT count(pg_advisory_xact_lock_shared(${USAGE_LOCK_CLASS}, k))
   FROM (SELECT DISTINCT hashtext(s) & ${LOCK_BUCKETS - 1} AS k FROM unnest($1::text[]) s ORDER BY 1) keys`,
);
const LOCK_EXCLUSIVE = statement(
  'usage_lock_exclusive',
  `SELECT count(pg_advisory_xact_lock(${USAGE_LOCK_CLASS}, k))
   FROM (SELECT DISTINCT hashtext(s) & ${LOCK_BUCKETS - 1} AS k FROM unnest($1::text[]) s ORDER BY 1) keys`,
);

/**
 * Everything a batch needs to decide, in one round trip: its subscriptions (start, current period, status,
 * the largest base fee its next invoice may carry), its meters (with how they rate), the events already
 * recorded under its (meter, key) pairs, and the subscriptions' unbilled usage totals (usage-bound.ts). All
 * scoped to the caller.
 */
const LOOKUP = statement(
  'usage_lookup',
  `SELECT
     (SELECT coalesce(json_agg(json_build_object('id', s.id, 'status', s.status,
               'startsAt', coalesce(s.start_at, s.created_at), 'billedThrough', b.billed_through,
               'base', greatest(p.amount, p.intro_amount, pp.amount, pp.intro_amount))), '[]')
        FROM subscriptions s
        LEFT JOIN usage_billed_through b ON b.subscription_id = s.id
        LEFT JOIN plans p ON p.id = s.plan_id
        LEFT JOIN plans pp ON pp.id = s.pending_plan_id
       WHERE s.id = ANY($3::uuid[]) AND s.merchant_code = $1 AND s.environment = $2) AS subscriptions,
     (SELECT coalesce(json_agg(json_build_object('id', m.id, 'code', m.code, 'aggregation', m.aggregation,
               'includedUnits', m.included_units, 'pricing', m.pricing)), '[]')
        FROM meters m
       WHERE m.code = ANY($4::text[]) AND m.merchant_code = $1 AND m.environment = $2) AS meters,
     (SELECT coalesce(json_agg(json_build_object('id', e.id, 'subscriptionId', e.subscription_id,
               'meterId', e.meter_id, 'quantity', e.quantity, 'occurredAt', e.occurred_at,
               'idempotencyKey', e.idempotency_key)), '[]')
        FROM unnest($5::text[], $6::text[]) AS k(code, key)
        JOIN meters m ON m.code = k.code AND m.merchant_code = $1 AND m.environment = $2
        JOIN usage_events e ON e.meter_id = m.id AND e.idempotency_key = k.key) AS existing,
     (SELECT coalesce(json_agg(json_build_object('subscriptionId', t.subscription_id, 'meterId', t.meter_id,
               'sum', t.sum::text, 'count', t.count, 'max', t.max, 'aggregation', m.aggregation,
               'includedUnits', m.included_units, 'pricing', m.pricing)), '[]')
        FROM (SELECT subscription_id, meter_id, sum(sum) AS sum, sum(count) AS count, max(max) AS max
                FROM usage_open_totals WHERE subscription_id = ANY($3::uuid[])
               GROUP BY subscription_id, meter_id) t
        JOIN meters m ON m.id = t.meter_id) AS totals`,
);

/**
 * The whole batch in one statement; an event whose (meter, key) is taken meanwhile is left out. The events
 * written are added to their subscriptions' unbilled totals in the same statement, in shard $8 of each pair
 * (picked per transaction, so concurrent batches rarely share a row) and in key order (two batches never wait
 * on each other's totals in a cycle).
 */
const INSERT = statement(
  'usage_insert',
  `WITH written AS (
     INSERT INTO usage_events (id, subscription_id, meter_id, quantity, occurred_at, idempotency_key, created_at)
     SELECT t.id, t.subscription_id, t.meter_id, t.quantity, t.occurred_at, t.idempotency_key, $7
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::bigint[], $5::timestamptz[], $6::text[])
            AS t(id, subscription_id, meter_id, quantity, occurred_at, idempotency_key)
     ON CONFLICT (meter_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING id, subscription_id, meter_id, quantity),
   totals AS (
     INSERT INTO usage_open_totals AS o (subscription_id, meter_id, shard, sum, count, max)
     SELECT subscription_id, meter_id, $8::smallint, sum(quantity), count(*), max(quantity)
       FROM written GROUP BY subscription_id, meter_id ORDER BY subscription_id, meter_id
     ON CONFLICT (subscription_id, meter_id, shard) DO UPDATE
       SET sum = o.sum + EXCLUDED.sum, count = o.count + EXCLUDED.count, max = greatest(o.max, EXCLUDED.max))
   SELECT id FROM written`,
);

const BY_KEYS = statement(
  'usage_by_keys',
  `SELECT e.id, e.subscription_id AS "subscriptionId", e.meter_id AS "meterId", e.quantity::float8 AS quantity,
          e.occurred_at AS "occurredAt", e.idempotency_key AS "idempotencyKey"
     FROM unnest($1::uuid[], $2::text[]) AS k(meter_id, key)
     JOIN usage_events e ON e.meter_id = k.meter_id AND e.idempotency_key = k.key`,
);

/** A rated period's usage left the unbilled totals: they are recomputed from the events still open. */
const CLEAR_OPEN = statement(
  'usage_clear_open',
  'DELETE FROM usage_open_totals WHERE subscription_id = ANY($1::uuid[])',
);
const REFILL_OPEN = statement(
  'usage_refill_open',
  `INSERT INTO usage_open_totals (subscription_id, meter_id, shard, sum, count, max)
   SELECT e.subscription_id, e.meter_id, 0, sum(e.quantity), count(*), max(e.quantity)
     FROM unnest($1::uuid[], $2::timestamptz[]) AS p(subscription_id, through)
     JOIN usage_events e ON e.subscription_id = p.subscription_id AND e.occurred_at >= p.through
    GROUP BY e.subscription_id, e.meter_id`,
);

const MARK_BILLED = statement(
  'usage_mark_billed',
  `INSERT INTO usage_billed_through (subscription_id, billed_through)
   SELECT * FROM unnest($1::uuid[], $2::timestamptz[])
   ON CONFLICT (subscription_id)
   DO UPDATE SET billed_through = greatest(usage_billed_through.billed_through, EXCLUDED.billed_through)`,
);

/** Per subscription of a renewal batch and meter, the aggregations of its usage in the period. */
const PERIOD_TOTALS = statement(
  'usage_period_totals',
  `SELECT e.subscription_id AS "subscriptionId", e.meter_id AS "meterId", sum(e.quantity)::text AS sum,
          count(*)::float8 AS count, max(e.quantity)::float8 AS max,
          ((array_agg(e.quantity ORDER BY e.occurred_at DESC, e.id DESC))[1])::float8 AS last
     FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) AS p(subscription_id, start_at, end_at)
     JOIN usage_events e
       ON e.subscription_id = p.subscription_id AND e.occurred_at >= p.start_at AND e.occurred_at < p.end_at
    GROUP BY e.subscription_id, e.meter_id`,
);

export interface UsageSubscription {
  id: string;
  status: string;
  startsAt: Date;
  /** Usage dated before it is billed already (null: none billed yet). */
  billedThrough: Date | null;
}

export interface StoredUsage {
  id: string;
  subscriptionId: string;
  meterId: string;
  quantity: number;
  occurredAt: Date;
  idempotencyKey: string;
}

export interface UsageLookup {
  subscriptions: Map<string, UsageSubscription>;
  /** meter code → meter id */
  meters: Map<string, string>;
  /** What a new event may add before a total, an amount or an invoice passes the safe bound. */
  bound: UsageBound;
  /** `${meterId}\n${key}` → the event recorded under that key */
  existing: Map<string, StoredUsage>;
}

export interface NewUsage {
  id: string;
  subscriptionId: string;
  meterId: string;
  quantity: number;
  occurredAt: Date;
  idempotencyKey: string | null;
}

export const usageKey = (meterId: string, key: string): string => `${meterId}\n${key}`;

/** Usage SQL: the batch lookup and insert of ingestion, and what rating needs (lock, period totals). */
@Injectable()
export class UsageRepository {
  /** Shared locks on the subscriptions a batch writes to (LOCK_SHARED); before `lookup`, so it sees their marks. */
  async lockShared(manager: EntityManager, subscriptionIds: string[]): Promise<void> {
    await runStatement(manager, LOCK_SHARED, [subscriptionIds]);
  }

  /**
   * For the renewals that rate these subscriptions' usage: call it first in the transaction that reads the
   * usage (`periodTotals` from the previous `billedThrough`, or the start, to the period end) and calls
   * `markBilledThrough`, before it locks the subscriptions (ingestion takes its shared locks first too).
   * Ingestion waits for that transaction, then answers USAGE_PERIOD_CLOSED for the billed time, so no event
   * can slip into a period after it was rated.
   */
  async lockForRating(manager: EntityManager, subscriptionIds: readonly string[]): Promise<void> {
    if (subscriptionIds.length) await runStatement(manager, LOCK_EXCLUSIVE, [subscriptionIds]);
  }

  async lookup(
    manager: EntityManager,
    scope: Scope,
    subscriptionIds: string[],
    meterCodes: string[],
    keys: Array<{ meterCode: string; key: string }>,
  ): Promise<UsageLookup> {
    const [row] = await runStatement<{
      subscriptions: Array<{
        id: string;
        status: string;
        startsAt: string;
        billedThrough: string | null;
        base: number | null;
      }>;
      meters: Array<{ id: string; code: string } & MeterRating>;
      existing: Array<Omit<StoredUsage, 'occurredAt'> & { occurredAt: string }>;
      totals: Array<{ subscriptionId: string; meterId: string; sum: string; count: number; max: number } & MeterRating>;
    }>(manager, LOOKUP, [
      scope.merchantCode,
      scope.environment,
      subscriptionIds,
      meterCodes,
      keys.map((k) => k.meterCode),
      keys.map((k) => k.key),
    ]);
    return {
      subscriptions: new Map(
        row.subscriptions.map((s) => [
          s.id,
          {
            id: s.id,
            status: s.status,
            startsAt: new Date(s.startsAt),
            billedThrough: s.billedThrough ? new Date(s.billedThrough) : null,
          },
        ]),
      ),
      meters: new Map(row.meters.map((m) => [m.code, m.id])),
      bound: new UsageBound(
        new Map(row.subscriptions.map((s) => [s.id, Number(s.base ?? 0)])),
        row.totals.map((t) => ({ ...t, sum: BigInt(t.sum), count: Number(t.count), max: Number(t.max) })),
        new Map([...row.meters, ...row.totals.map((t) => ({ ...t, id: t.meterId }))].map((m) => [m.id, ratingOf(m)])),
      ),
      existing: new Map(
        row.existing.map((e) => [usageKey(e.meterId, e.idempotencyKey), { ...e, occurredAt: new Date(e.occurredAt) }]),
      ),
    };
  }

  /**
   * Inserts the events in one statement; answers the ids written (an event whose key was taken is not).
   * Inside a pipelined transaction the statement travels with the COMMIT: await the answer after it.
   */
  insert(manager: EntityManager, events: NewUsage[], createdAt: Date): Promise<Set<string>> {
    const written = deferQuery<{ id: string }>(manager, INSERT, [
      events.map((e) => e.id),
      events.map((e) => e.subscriptionId),
      events.map((e) => e.meterId),
      events.map((e) => e.quantity),
      events.map((e) => e.occurredAt.toISOString()),
      events.map((e) => e.idempotencyKey),
      createdAt,
      randomInt(TOTALS_SHARDS),
    ]).then((rows) => new Set(rows.map((r) => r.id)));
    // Awaited only after the commit: a failure must not count as unhandled meanwhile.
    written.catch(() => undefined);
    return written;
  }

  /** The events recorded under these (meter, key) pairs, e.g. by a concurrent request that won the key. */
  async byKeys(
    manager: EntityManager,
    keys: Array<{ meterId: string; key: string }>,
  ): Promise<Map<string, StoredUsage>> {
    const rows = await runStatement<StoredUsage>(manager, BY_KEYS, [
      keys.map((k) => k.meterId),
      keys.map((k) => k.key),
    ]);
    return new Map(rows.map((r) => [usageKey(r.meterId, r.idempotencyKey), r]));
  }

  /**
   * For the renewals, after they rated [from, `through`): usage dated before `through` is closed from now on
   * (USAGE_PERIOD_CLOSED), and the unbilled totals of these subscriptions are recomputed from the usage dated
   * from `through` on. In the rating transaction, after `lockForRating`; sent with its commit. It never moves
   * back.
   */
  async markBilledThrough(manager: EntityManager, marks: ReadonlyArray<{ id: string; through: Date }>): Promise<void> {
    if (!marks.length) return;
    const ids = marks.map((m) => m.id);
    const through = marks.map((m) => m.through);
    await deferStatement(manager, MARK_BILLED, [ids, through]);
    await deferStatement(manager, CLEAR_OPEN, [ids]);
    await deferStatement(manager, REFILL_OPEN, [ids, through]);
  }

  /**
   * Per subscription and meter, every aggregation of its usage in [start, end): the renewal picks the
   * meter's. Keyed by subscription id, then meter id.
   */
  async periodTotals(
    manager: EntityManager,
    periods: ReadonlyArray<{ id: string; start: Date; end: Date }>,
  ): Promise<Map<string, Map<string, Record<Aggregation, number>>>> {
    const totals = new Map<string, Map<string, Record<Aggregation, number>>>();
    if (!periods.length) return totals;
    const rows = await runStatement<{
      subscriptionId: string;
      meterId: string;
      sum: string;
      count: number;
      max: number;
      last: number;
    }>(manager, PERIOD_TOTALS, [periods.map((p) => p.id), periods.map((p) => p.start), periods.map((p) => p.end)]);
    for (const r of rows) {
      const bySubscription = totals.get(r.subscriptionId) ?? new Map<string, Record<Aggregation, number>>();
      bySubscription.set(r.meterId, { sum: safeSum(r.sum), count: r.count, max: r.max, last: r.last });
      totals.set(r.subscriptionId, bySubscription);
    }
    return totals;
  }
}

function ratingOf(m: MeterRating): MeterRating {
  return { aggregation: m.aggregation, includedUnits: Number(m.includedUnits), pricing: m.pricing };
}

function safeSum(text: string): number {
  const sum = Number(text);
  if (!Number.isSafeInteger(sum)) throw new RangeError(`Usage sum ${text} exceeds Number.MAX_SAFE_INTEGER`);
  return sum;
}
