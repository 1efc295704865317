import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Environment } from '@app/contracts';
import type { ExpiringKeys } from './idempotency-sweep.loop';
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
          response_body AS "responseBody", created_at AS "createdAt"
   FROM idempotency_keys WHERE merchant_code = $1 AND environment = $2 AND idempotency_key = $3`,
);
/** The answers of requests in progress, all of a transaction's in one statement (gatherRow). */
const COMPLETE = statement(
  'idempotency_complete_many',
  `UPDATE idempotency_keys i SET response_status = v.s, response_body = v.b
   FROM json_to_recordset($1::json) AS v(m text, e text, k text, s int, b json)
   WHERE i.merchant_code = v.m AND i.environment = v.e AND i.idempotency_key = v.k AND i.response_status IS NULL`,
);
const RELEASE = statement(
  'idempotency_release',
  `DELETE FROM idempotency_keys
   WHERE merchant_code = $1 AND environment = $2 AND idempotency_key = $3 AND response_status IS NULL`,
);

/** The Idempotency-Key already has a row: an earlier request's answer, or a request still in progress. */
export class KeyTaken extends Error {
  constructor() {
    super('The Idempotency-Key has a record already');
    this.name = 'KeyTaken';
  }
}

/**
 * The `idempotency_keys` table of a service's database (created by each service's migrations): one row per
 * key, its fingerprint, and the answer once the work is recorded. The statements are prepared and gathered
 * so that a pipelined transaction sends them with the rest of its batch.
 */
@Injectable()
export class IdempotencyRepository implements ExpiringKeys {
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

  /** Deletes answered records older than `hours` (database time: retention is wall-clock); returns how many. */
  async deleteExpired(hours: number): Promise<number> {
    const result: [unknown[], number] = await this.db.query(
      `DELETE FROM idempotency_keys
       WHERE created_at < now() - make_interval(hours => $1) AND response_status IS NOT NULL`,
      [hours],
    );
    return result[1] ?? 0;
  }
}
