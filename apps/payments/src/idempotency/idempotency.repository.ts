import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deferStatement, runStatement, statement } from '@app/database';
import { Scope } from '../payment/payment.repository';
import { IdempotencyRecord } from './idempotency.entity';

/** The advisory lock that marks a key in flight: two int4 halves, so unrelated keys rarely share one. */
export const idempotencyLockKeys = (scope: Scope, key: string): [string, string] => [
  `idempotency:${scope.environment}:${scope.merchantCode}`,
  key,
];

const TRY_LOCK = statement(
  'idempotency_try_lock',
  'SELECT pg_try_advisory_xact_lock(hashtext($1), hashtext($2)) AS locked',
);
const FIND = statement(
  'idempotency_find',
  `SELECT operation, request_hash AS "requestHash", response_status AS "responseStatus",
          response_body AS "responseBody", created_at AS "createdAt"
   FROM idempotency_keys WHERE merchant_code = $1 AND environment = $2 AND idempotency_key = $3`,
);
const INSERT = statement(
  'idempotency_insert',
  `INSERT INTO idempotency_keys
     (merchant_code, environment, idempotency_key, operation, request_hash, response_status, response_body)
   VALUES ($1, $2, $3, $4, $5, $6, $7)`,
);

@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Holds the key for the rest of the transaction, or answers false at once when another request holds it.
   * Transaction-scoped, so a crash or a rollback frees it: nothing is left "in progress" for ever.
   */
  async tryLock(manager: EntityManager, scope: Scope, key: string): Promise<boolean> {
    const rows = await runStatement<{ locked: boolean }>(manager, TRY_LOCK, idempotencyLockKeys(scope, key));
    return rows[0].locked;
  }

  /** Issued right behind `tryLock` on the same connection, so it reads after the lock is settled. */
  async find(manager: EntityManager, scope: Scope, key: string): Promise<IdempotencyRecord | null> {
    const rows = await runStatement<Omit<IdempotencyRecord, 'merchantCode' | 'environment' | 'key'>>(manager, FIND, [
      scope.merchantCode,
      scope.environment,
      key,
    ]);
    return rows.length ? { ...rows[0], merchantCode: scope.merchantCode, environment: scope.environment, key } : null;
  }

  /** Sent with the commit (deferred): nothing in the transaction reads it back. */
  insert(manager: EntityManager, r: Omit<IdempotencyRecord, 'createdAt'>): Promise<void> {
    return deferStatement(manager, INSERT, [
      r.merchantCode,
      r.environment,
      r.key,
      r.operation,
      r.requestHash,
      r.responseStatus,
      JSON.stringify(r.responseBody),
    ]);
  }

  /** Deletes records older than `hours` (database time: retention is wall-clock); returns how many. */
  async deleteOlderThan(hours: number): Promise<number> {
    const result: [unknown[], number] = await this.db.query(
      'DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)',
      [hours],
    );
    return result[1] ?? 0;
  }
}
