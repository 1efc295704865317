import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Scope } from '../scope';

export interface IdempotencyRow {
  operation: string;
  request_hash: string;
  response: unknown;
  /** Still in progress while this is in the future; a crashed holder's reservation lapses then. */
  reserved_until: Date | null;
}

/** Idempotency-Key records of billing: reserved (committed) before a payments call, answered with the change. */
@Injectable()
export class BillingIdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** True when this call took the key: a new row, or a lapsed reservation taken over. */
  async reserve(scope: Scope, key: string, operation: string, hash: string, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO billing_idempotency (merchant_code, environment, key, operation, request_hash, reserved_until)
       VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')
       ON CONFLICT (merchant_code, environment, key) DO UPDATE
         SET operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash,
             reserved_until = EXCLUDED.reserved_until, created_at = now()
         WHERE billing_idempotency.response IS NULL AND billing_idempotency.reserved_until < now()
           AND billing_idempotency.operation = EXCLUDED.operation
           AND billing_idempotency.request_hash = EXCLUDED.request_hash
       RETURNING 1`,
      [scope.merchantCode, scope.environment, key, operation, hash, leaseMs],
    );
    return rows.length === 1;
  }

  async find(scope: Scope, key: string): Promise<IdempotencyRow | null> {
    const rows: IdempotencyRow[] = await this.db.query(
      `SELECT operation, request_hash, response, reserved_until FROM billing_idempotency
       WHERE merchant_code = $1 AND environment = $2 AND key = $3`,
      [scope.merchantCode, scope.environment, key],
    );
    return rows[0] ?? null;
  }

  /** The answer, in the transaction of the change it answers. */
  async answer(manager: EntityManager, scope: Scope, key: string, response: unknown): Promise<void> {
    await manager.query(
      `UPDATE billing_idempotency SET response = $4, reserved_until = NULL
       WHERE merchant_code = $1 AND environment = $2 AND key = $3`,
      [scope.merchantCode, scope.environment, key, JSON.stringify(response)],
    );
  }

  /** Frees the key after a failed attempt, so a corrected retry with it proceeds. */
  async release(scope: Scope, key: string): Promise<void> {
    await this.db.query(
      `DELETE FROM billing_idempotency
       WHERE merchant_code = $1 AND environment = $2 AND key = $3 AND response IS NULL`,
      [scope.merchantCode, scope.environment, key],
    );
  }
}
