import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Environment } from '@app/contracts';
import { deferStatement, gatherRow, runStatement, statement, uniqueViolation } from '@app/database';

/** Whose a key is: keys belong to a merchant and an environment. */
export interface KeyScope {
  merchantCode: string;
  environment: Environment;
}

/** A key's row in `idempotency_keys`: in progress (no status yet), then its stored answer. */
export interface IdempotencyRow {
  operation: string;
  requestHash: string;
  responseStatus: number | null;
  responseBody: unknown;
  createdAt: Date;
  /** Leased keys only (see `lease`): the id of what the request creates, kept across its attempts. */
  resourceId: string | null;
  /** Leased keys only: in progress while this is in the future; null once answered or released. */
  reservedUntil: Date | null;
}

/** A leased key taken by this request: its resource id and the fingerprint the row keeps. */
export interface Lease {
  resourceId: string;
  requestHash: string;
}

/** The key's row, in progress (no response yet): it waits for an uncommitted holder, then does nothing. */
const RESERVE = statement(
  'idempotency_reserve',
  `INSERT INTO idempotency_keys (merchant_code, environment, idempotency_key, operation, request_hash)
   VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1 AS reserved`,
);
/**
 * The same rows, failing (unique violation) when a key has one already: for reserves sent in one batch, all the
 * keys of a transaction in one statement (gatherRow).
 */
const HOLD = statement(
  'idempotency_hold_many',
  `INSERT INTO idempotency_keys (merchant_code, environment, idempotency_key, operation, request_hash)
   SELECT m, e, k, o, h FROM json_to_recordset($1::json) AS v(m text, e text, k text, o text, h text)`,
);
const FIND = statement(
  'idempotency_find',
  `SELECT operation, request_hash AS "requestHash", response_status AS "responseStatus",
          response_body AS "responseBody", created_at AS "createdAt", resource_id AS "resourceId",
          reserved_until AS "reservedUntil"
   FROM idempotency_keys WHERE merchant_code = $1 AND environment = $2 AND idempotency_key = $3`,
);
/**
 * A leased key, committed on its own: a new row, a released one of the same operation (a failed attempt, even
 * with a corrected body) or a lapsed lease. The row keeps its resource id, and its fingerprint when that is this
 * request's by an earlier release's algorithm ($8), so a retry derives the same downstream keys.
 */
const LEASE = statement(
  'idempotency_lease',
  `INSERT INTO idempotency_keys
     (merchant_code, environment, idempotency_key, operation, request_hash, resource_id, reserved_until)
   VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::float8 / 1000))
   ON CONFLICT (merchant_code, environment, idempotency_key) DO UPDATE
     SET request_hash = CASE WHEN idempotency_keys.request_hash = ANY ($8::text[])
                             THEN idempotency_keys.request_hash ELSE EXCLUDED.request_hash END,
         reserved_until = EXCLUDED.reserved_until
     WHERE idempotency_keys.response_status IS NULL AND idempotency_keys.resource_id IS NOT NULL
       AND idempotency_keys.operation = EXCLUDED.operation
       AND (idempotency_keys.reserved_until IS NULL OR idempotency_keys.reserved_until < now())
   RETURNING resource_id AS "resourceId", request_hash AS "requestHash"`,
);
/** A leased key released with its row, which keeps the resource id for the retry. */
const UNLEASE = statement(
  'idempotency_unlease',
  `UPDATE idempotency_keys SET reserved_until = NULL
   WHERE merchant_code = $1 AND environment = $2 AND idempotency_key = $3 AND response_status IS NULL`,
);
/** The answers of requests in progress, all of a transaction's in one statement (gatherRow). */
const COMPLETE = statement(
  'idempotency_complete_many',
  `UPDATE idempotency_keys i SET response_status = v.s, response_body = v.b, reserved_until = NULL
   FROM json_to_recordset($1::json) AS v(m text, e text, k text, s int, b json)
   WHERE i.merchant_code = v.m AND i.environment = v.e AND i.idempotency_key = v.k AND i.response_status IS NULL`,
);
const RELEASE = statement(
  'idempotency_release',
  `DELETE FROM idempotency_keys
   WHERE merchant_code = $1 AND environment = $2 AND idempotency_key = $3 AND response_status IS NULL`,
);

/**
 * Keys older than the retention, in batches (replicas side by side: SKIP LOCKED), never one in progress: a key
 * without an answer, unless it is leased and its lease was released or has lapsed.
 */
const SWEEP = statement(
  'idempotency_sweep',
  `DELETE FROM idempotency_keys WHERE (merchant_code, environment, idempotency_key) IN (
     SELECT merchant_code, environment, idempotency_key FROM idempotency_keys
     WHERE created_at < now() - make_interval(hours => $1)
       AND (response_status IS NOT NULL
            OR (resource_id IS NOT NULL AND (reserved_until IS NULL OR reserved_until < now())))
     ORDER BY created_at
     LIMIT $2
     FOR UPDATE SKIP LOCKED)
   RETURNING 1`,
);

/** The Idempotency-Key already has a row: an earlier request's answer, or a request still in progress. */
export class KeyTaken extends Error {
  constructor() {
    super('The Idempotency-Key has a record already');
    this.name = 'KeyTaken';
  }
}

/**
 * The `idempotency_keys` table of a service's database (created by this library's migrations, which every
 * service lists): one row per key, its fingerprint, and the answer once the work is recorded. The statements
 * are prepared and gathered so that a pipelined transaction sends them with the rest of its batch.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** True when this request now holds the key (its row in progress); false when a row was already there. */
  async reserve(
    manager: EntityManager,
    scope: KeyScope,
    key: string,
    operation: string,
    requestHash: string,
  ): Promise<boolean> {
    const rows = await runStatement(manager, RESERVE, [
      scope.merchantCode,
      scope.environment,
      key,
      operation,
      requestHash,
    ]);
    return rows.length > 0;
  }

  /**
   * Sent with the commit: the key's row in progress, or the transaction fails with KeyTaken when the key has a
   * row already (then the reservation, sent in the same batch, is rolled back with it).
   */
  hold(manager: EntityManager, scope: KeyScope, key: string, operation: string, requestHash: string): Promise<void> {
    const row = { m: scope.merchantCode, e: scope.environment, k: key, o: operation, h: requestHash };
    return gatherRow(manager, HOLD, row, (e) => (uniqueViolation(e) === 'idempotency_keys_pkey' ? new KeyTaken() : e));
  }

  /** Outside any transaction: the key's row as it stands. */
  findNow(scope: KeyScope, key: string): Promise<IdempotencyRow | null> {
    return this.find(this.db.manager, scope, key);
  }

  /** Issued right behind `reserve` on the same connection, so it reads after the insert is settled. */
  async find(manager: EntityManager, scope: KeyScope, key: string): Promise<IdempotencyRow | null> {
    const rows = await runStatement<IdempotencyRow>(manager, FIND, [scope.merchantCode, scope.environment, key]);
    return rows[0] ?? null;
  }

  /** Stores the answer of the request in progress (sent with the commit: nothing reads it back). */
  complete(manager: EntityManager, scope: KeyScope, key: string, status: number, response: unknown): Promise<void> {
    const row = { m: scope.merchantCode, e: scope.environment, k: key, s: status, b: response };
    return gatherRow(manager, COMPLETE, row);
  }

  /** Frees a key whose request recorded nothing, so a retry with it proceeds. */
  release(manager: EntityManager, scope: KeyScope, key: string): Promise<void> {
    return deferStatement(manager, RELEASE, [scope.merchantCode, scope.environment, key]);
  }

  /**
   * Takes a leased key in a statement committed on its own; null when the key is not free (answered, in
   * progress, or used with another operation). `keep`: the forms this request's fingerprint had in earlier
   * releases.
   */
  async lease(
    scope: KeyScope,
    key: string,
    operation: string,
    hash: { current: string; keep: string[] },
    resourceId: string,
    leaseMs: number,
  ): Promise<Lease | null> {
    const rows = await runStatement<Lease>(this.db, LEASE, [
      scope.merchantCode,
      scope.environment,
      key,
      operation,
      hash.current,
      resourceId,
      leaseMs,
      hash.keep,
    ]);
    return rows[0] ?? null;
  }

  /** Frees a leased key whose attempt failed; `keepRow`: the row stays, with its resource id, for the retry. */
  async unlease(scope: KeyScope, key: string, keepRow: boolean): Promise<void> {
    await runStatement(this.db, keepRow ? UNLEASE : RELEASE, [scope.merchantCode, scope.environment, key]);
  }

  /**
   * Deletes up to `batch` keys older than `hours` (database time: retention is wall-clock) that are not in
   * progress; answers how many went.
   */
  async deleteExpired(hours: number, batch: number): Promise<number> {
    return (await runStatement(this.db, SWEEP, [hours, batch])).length;
  }
}
