import type { QueryResultRow } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { deferStatement, runAsyncCommit, runQueueClaim, runStatement, statement } from '@app/database';

/**
 * Every statement on the outbox table, and the calls that run them: the writer's inserts (OutboxWriter), the
 * relay's claim, marks, renewals and releases (OutboxRelayLoop), the prune (OutboxPruneLoop) and the backlog
 * gauges (OutboxModule).
 */

/** $4: the traceparent of the work that writes the row (NULL with tracing off). */
const INSERT_EVENT = statement(
  'outbox_insert',
  'INSERT INTO outbox (id, type, envelope, trace_parent) VALUES ($1, $2, $3, $4)',
);
/**
 * The rows of a direct publish, all the events of one transaction in one statement: born leased to this
 * process's relay (one claim, counted in `attempts`). $5: the transaction's traceparent, the parent of their
 * direct publish too (NULL with tracing off).
 */
const INSERT_LEASED = statement(
  'outbox_insert_leased',
  `INSERT INTO outbox (id, type, envelope, claimed_until, attempts, trace_parent)
   SELECT e.id, e.type, j.envelope, clock_timestamp() + make_interval(secs => $4), 1, $5::text
   FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS e(id, type, i)
   JOIN json_array_elements($3::json) WITH ORDINALITY AS j(envelope, i) USING (i)`,
);

/** The oldest unpublished rows nobody holds, leased to this relay; answered in created order. */
const CLAIM = statement(
  'outbox_claim',
  `WITH claimed AS (
     UPDATE outbox SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM outbox
       WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
       ORDER BY created_at, id
       LIMIT $1
       FOR UPDATE SKIP LOCKED)
     RETURNING id, type, envelope::text AS envelope, trace_parent, created_at)
   SELECT id, type, envelope, trace_parent AS "traceParent" FROM claimed ORDER BY created_at, id`,
);
const MARK_PUBLISHED = statement(
  'outbox_mark_published',
  'UPDATE outbox SET published_at = now(), claimed_until = NULL, last_error = NULL WHERE id = ANY($1)',
);
const RENEW = statement(
  'outbox_renew',
  'UPDATE outbox SET claimed_until = now() + make_interval(secs => $2) WHERE id = ANY($1) AND published_at IS NULL',
);
const RELEASE = statement(
  'outbox_release',
  'UPDATE outbox SET claimed_until = NULL, last_error = $2 WHERE id = ANY($1)',
);

/**
 * Rows are found by id: outbox ids are UUID v7, which sort by creation time, so "created before the cut-off"
 * is a range of the primary key and no further index is needed. Unpublished rows are never deleted.
 */
const PRUNE = statement(
  'outbox_prune',
  `DELETE FROM outbox WHERE id IN (
     SELECT id FROM outbox
     WHERE id < $1 AND published_at IS NOT NULL
     ORDER BY id
     LIMIT $2
     FOR UPDATE SKIP LOCKED)
   RETURNING id`,
);

/** Served by the `outbox_unpublished` partial index. */
export const OUTBOX_BACKLOG = statement(
  'outbox_backlog',
  `SELECT count(*)::int AS n, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age
     FROM outbox WHERE published_at IS NULL`,
);

/** One event row, sent with the commit of the caller's transaction: id, type, envelope, traceparent. */
export function insertOutboxEvent(
  manager: EntityManager,
  values: [string, string, string, string | null],
): Promise<void> {
  return deferStatement(manager, INSERT_EVENT, values);
}

/** A transaction's events in one statement, born leased to this relay (see INSERT_LEASED). */
export function insertLeasedOutboxEvents(
  manager: EntityManager,
  values: [string[], string[], string, number, string | null],
): Promise<void> {
  return deferStatement(manager, INSERT_LEASED, values);
}

/** Claims up to `limit` rows for `leaseSeconds`, committed without waiting for the WAL flush. */
export function claimOutbox<R extends QueryResultRow>(
  ds: DataSource,
  limit: number,
  leaseSeconds: number,
): Promise<R[]> {
  return runQueueClaim<R>(ds, CLAIM, [limit, leaseSeconds], { asyncCommit: true });
}

/** Marks rows published (and unleased), committed without waiting for the WAL flush. */
export async function markPublished(ds: DataSource, ids: string[]): Promise<void> {
  await runAsyncCommit(ds, MARK_PUBLISHED, [ids]);
}

export async function renewOutbox(ds: DataSource, ids: string[], leaseSeconds: number): Promise<void> {
  await runStatement(ds, RENEW, [ids, leaseSeconds]);
}

/** Unleases rows that were not published, with the error that stopped them. */
export async function releaseOutbox(ds: DataSource, ids: string[], error: string): Promise<void> {
  await runStatement(ds, RELEASE, [ids, error]);
}

/** Deletes up to `limit` published rows with ids below `before`; answers how many went. */
export async function pruneOutbox(ds: DataSource, before: string, limit: number): Promise<number> {
  return (await runStatement(ds, PRUNE, [before, limit])).length;
}
