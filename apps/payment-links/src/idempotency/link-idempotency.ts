import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext, canonicalJson, isValidIdempotencyKey } from '@app/contracts';
import { DomainError } from '@app/errors';

const reused = (): DomainError =>
  new DomainError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was used with another request body',
    'Idempotency-Key',
  );

/**
 * Idempotency-Key on link creation (DECISIONS §1): the key is recorded in the creating transaction, so a
 * replay answers the stored link and a concurrent twin waits on the key's row, then replays it. Another body
 * with the same key is 422 IDEMPOTENCY_KEY_REUSED; an error stores nothing.
 */
@Injectable()
export class LinkIdempotency {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The stored answer of an earlier request with this key, read before any work (and any NATS call). */
  async replay<T>(ctx: CallerContext, request: unknown): Promise<T | undefined> {
    if (ctx.idempotencyKey === undefined) return undefined;
    this.check(ctx.idempotencyKey);
    const rows: { request_hash: string; response_body: T | null }[] = await this.db.query(
      `SELECT request_hash, response_body FROM idempotency_keys
       WHERE merchant_code = $1 AND environment = $2 AND idempotency_key = $3`,
      [ctx.merchantCode, ctx.environment, ctx.idempotencyKey],
    );
    if (!rows.length) return undefined;
    if (rows[0].request_hash !== hashOf(request)) throw reused();
    return rows[0].response_body ?? undefined;
  }

  run<T>(ctx: CallerContext, request: unknown, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const key = ctx.idempotencyKey;
    if (key === undefined) return this.db.transaction(work);
    const hash = hashOf(request);
    return this.db.transaction(async (manager) => {
      // A twin in flight holds the key's row: this insert waits for its commit, then finds the row.
      const inserted: unknown[] = await manager.query(
        `INSERT INTO idempotency_keys (merchant_code, environment, idempotency_key, request_hash)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1`,
        [ctx.merchantCode, ctx.environment, key, hash],
      );
      if (!inserted.length) {
        const [earlier] = (await manager.query(
          `SELECT request_hash, response_body FROM idempotency_keys
           WHERE merchant_code = $1 AND environment = $2 AND idempotency_key = $3`,
          [ctx.merchantCode, ctx.environment, key],
        )) as { request_hash: string; response_body: T }[];
        if (earlier.request_hash !== hash) throw reused();
        return earlier.response_body;
      }
      const response = await work(manager);
      await manager.query(
        `UPDATE idempotency_keys SET response_body = $4
         WHERE merchant_code = $1 AND environment = $2 AND idempotency_key = $3`,
        [ctx.merchantCode, ctx.environment, key, JSON.stringify(response)],
      );
      return response;
    });
  }

  /** Keys are kept 24 hours (DECISIONS §3 Rules), by the database clock: retention is real time. */
  async prune(): Promise<number> {
    const rows: unknown[] = await this.db.query(
      "DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours' RETURNING 1",
    );
    return rows.length;
  }

  private check(key: string): void {
    if (!isValidIdempotencyKey(key)) {
      throw DomainError.validation('Idempotency-Key must be 1-255 printable ASCII characters', 'Idempotency-Key');
    }
  }
}

const hashOf = (request: unknown): string => createHash('sha256').update(canonicalJson(request)).digest('hex');
