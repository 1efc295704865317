import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Scope } from '../payment/payment.repository';
import { IdempotencyRecord } from './idempotency.entity';

/** The advisory lock that marks a key in flight: two int4 halves, so unrelated keys rarely share one. */
export const idempotencyLockKeys = (scope: Scope, key: string): [string, string] => [
  `idempotency:${scope.environment}:${scope.merchantCode}`,
  key,
];

@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Holds the key for the rest of the transaction, or answers false at once when another request holds it.
   * Transaction-scoped, so a crash or a rollback frees it: nothing is left "in progress" for ever.
   */
  async tryLock(manager: EntityManager, scope: Scope, key: string): Promise<boolean> {
    const rows: Array<{ locked: boolean }> = await manager.query(
      'SELECT pg_try_advisory_xact_lock(hashtext($1), hashtext($2)) AS locked',
      idempotencyLockKeys(scope, key),
    );
    return rows[0].locked;
  }

  find(manager: EntityManager, scope: Scope, key: string): Promise<IdempotencyRecord | null> {
    return manager
      .getRepository(IdempotencyRecord)
      .findOneBy({ merchantCode: scope.merchantCode, environment: scope.environment, key });
  }

  async insert(manager: EntityManager, record: Omit<IdempotencyRecord, 'createdAt'>): Promise<void> {
    await manager.insert(IdempotencyRecord, record);
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
