import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ExpiringKeys } from '@app/idempotency';
import { Scope } from '../scope';

/** Expired records go in batches of this many (replicas side by side: SKIP LOCKED). */
const SWEEP_BATCH = 1000;

export interface IdempotencyRow {
  operation: string;
  resource_id: string;
  request_hash: string;
  response: unknown;
  /** Still in progress while this is in the future; a crashed holder's reservation lapses then. */
  reserved_until: Date | null;
}

/**
 * Idempotency-Key records of billing: reserved (committed) before a payments call, answered with the change.
 * Billing's own besides the shared `idempotency_keys` shape: a reservation lapses after a lease (a crashed
 * holder's key is free again then), and a released key keeps its row, so a retry keeps the resource id.
 */
@Injectable()
export class BillingIdempotencyRepository implements ExpiringKeys {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Takes the key: a new row, a released one (a failed attempt, even with a corrected body) or a lapsed
   * reservation. Answers the key's resource id (kept across attempts) and fingerprint, or null when the key is
   * not free. A released row written with this request's `legacyHash` (before the versioned fingerprint) keeps
   * it, so the retry derives the same payments keys as the attempt before it.
   */
  async reserve(
    scope: Scope,
    key: string,
    operation: string,
    hash: { current: string; legacy: string },
    resourceId: string,
    leaseMs: number,
  ): Promise<{ resourceId: string; requestHash: string } | null> {
    const rows: Array<{ resource_id: string; request_hash: string }> = await this.db.query(
      `INSERT INTO billing_idempotency
         (merchant_code, environment, key, operation, request_hash, resource_id, reserved_until)
       VALUES ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 millisecond')
       ON CONFLICT (merchant_code, environment, key) DO UPDATE
         SET request_hash = CASE WHEN billing_idempotency.request_hash = $8 THEN billing_idempotency.request_hash
                                 ELSE EXCLUDED.request_hash END,
             reserved_until = EXCLUDED.reserved_until
         WHERE billing_idempotency.response IS NULL AND billing_idempotency.operation = EXCLUDED.operation
           AND (billing_idempotency.reserved_until IS NULL OR billing_idempotency.reserved_until < now())
       RETURNING resource_id, request_hash`,
      [scope.merchantCode, scope.environment, key, operation, hash.current, resourceId, leaseMs, hash.legacy],
    );
    return rows[0] ? { resourceId: rows[0].resource_id, requestHash: rows[0].request_hash } : null;
  }

  async find(scope: Scope, key: string): Promise<IdempotencyRow | null> {
    const rows: IdempotencyRow[] = await this.db.query(
      `SELECT operation, resource_id, request_hash, response, reserved_until FROM billing_idempotency
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

  /**
   * Frees the key after a failed attempt, so that a retry (corrected or not) proceeds. The row stays: a retry
   * keeps the resource id, so its payments calls carry the same order reference.
   */
  async release(scope: Scope, key: string): Promise<void> {
    await this.db.query(
      `UPDATE billing_idempotency SET reserved_until = NULL
       WHERE merchant_code = $1 AND environment = $2 AND key = $3 AND response IS NULL`,
      [scope.merchantCode, scope.environment, key],
    );
  }

  /** Records older than the retention that are not reserved right now, in batches; answers how many went. */
  async deleteExpired(retentionHours: number): Promise<number> {
    let total = 0;
    for (;;) {
      const rows: unknown[] = await this.db.query(
        `DELETE FROM billing_idempotency WHERE (merchant_code, environment, key) IN (
           SELECT merchant_code, environment, key FROM billing_idempotency
           WHERE created_at < now() - make_interval(hours => $1)
             AND (reserved_until IS NULL OR reserved_until < now())
           ORDER BY created_at
           LIMIT $2
           FOR UPDATE SKIP LOCKED)
         RETURNING 1`,
        [retentionHours, SWEEP_BATCH],
      );
      total += rows.length;
      if (rows.length < SWEEP_BATCH) return total;
    }
  }
}
