import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { inTransaction, uniqueViolation } from '@app/database';
import { ATTEMPT_MACHINE, DELIVERY_MACHINE } from './delivery-state';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookSecretCipher } from '@app/cipher';

interface SealedRow {
  keyId: string;
  blob: Buffer;
  createdAt: Date;
  previousSecretExpiresAt?: Date | null;
}

/**
 * A roll (`row`: the updated row's alias, if any): $1/$2 the new sealed secret, $6 the grace in seconds. The current secret becomes the previous one
 * (every expression reads the row as it was) and stays live until the grace ends; with no grace, none does.
 */
const rollSet = (row = ''): string => `previous_secret_key_id = CASE WHEN $6::int > 0 THEN ${row}secret_key_id END,
  previous_secret_sealed = CASE WHEN $6::int > 0 THEN ${row}secret_sealed END,
  previous_secret_expires_at = CASE WHEN $6::int > 0 THEN now() + make_interval(secs => $6::int) END,
  secret_key_id = $1, secret_sealed = $2`;

export type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

/** One live endpoint per merchant, environment and URL (migrations/1768300000034-webhook-endpoint-unique-url.ts). */
const LIVE_URL_INDEX = 'webhook_endpoints_live_url';
/**
 * Key space of the advisory lock one merchant's endpoints in one environment are created under
 * (`pg_advisory_xact_lock(class, key)`), so it cannot collide with another feature's locks.
 */
const ENDPOINTS_LOCK_CLASS = 0x77686570; // "whep"

/** Why an endpoint was not stored: the scope holds the most it may, or a live endpoint has its URL. */
export type InsertRefusal = 'limit' | 'duplicate-url';

/** Everything but the sealed secret, which only the delivery worker opens. */
const ENDPOINT_COLUMNS = `id, merchant_code AS "merchantCode", environment, url, events, description, disabled,
  created_at AS "createdAt", deleted_at AS "deletedAt"`;
const SECRET_COLUMNS = `secret_key_id AS "keyId", secret_sealed AS "blob", created_at AS "createdAt"`;

export type EndpointRow = Omit<
  WebhookEndpoint,
  'secretKeyId' | 'secretSealed' | 'previousSecretKeyId' | 'previousSecretSealed' | 'previousSecretExpiresAt'
>;

/** What `PATCH /v1/webhook-endpoint/{id}` may change. */
export type EndpointChanges = Partial<Pick<EndpointRow, 'url' | 'events' | 'description' | 'disabled'>>;

/** An account signing secret, opened. */
export interface AccountSecret {
  secret: string;
  createdAt: Date;
  /** Until when the secret before the last roll still signs; null when it no longer does. */
  previousSecretExpiresAt: Date | null;
}

/** Endpoints and account secrets; every query is scoped by merchant and environment. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cipher: WebhookSecretCipher,
  ) {}

  /**
   * Stores the endpoint with its signing secret sealed (the clear secret never reaches the database), unless its
   * scope already has `max` live endpoints or one with its URL. The count is taken under a lock of the scope,
   * held until the insert commits, so creations in parallel cannot pass the bound together.
   */
  async insert(endpoint: EndpointRow, secret: string, max: number): Promise<InsertRefusal | undefined> {
    const sealed = this.cipher.seal({ endpointId: endpoint.id }, secret);
    return inTransaction(this.db, async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(${ENDPOINTS_LOCK_CLASS}, hashtext($1 || '/' || $2))`, [
        endpoint.merchantCode,
        endpoint.environment,
      ]);
      const [{ live }]: [{ live: number }] = await m.query(
        `SELECT count(*)::int AS live FROM webhook_endpoints
         WHERE merchant_code = $1 AND environment = $2 AND deleted_at IS NULL`,
        [endpoint.merchantCode, endpoint.environment],
      );
      if (live >= max) return 'limit';
      const inserted: unknown[] = await m.query(
        `INSERT INTO webhook_endpoints (id, merchant_code, environment, url, events, description, disabled,
           secret_key_id, secret_sealed, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (merchant_code, environment, url) WHERE deleted_at IS NULL DO NOTHING
         RETURNING id`,
        [
          endpoint.id,
          endpoint.merchantCode,
          endpoint.environment,
          endpoint.url,
          endpoint.events,
          endpoint.description,
          endpoint.disabled,
          sealed.keyId,
          sealed.blob,
          endpoint.createdAt,
        ],
      );
      return inserted.length ? undefined : 'duplicate-url';
    });
  }

  /** Live endpoints, newest first, after the cursor endpoint when given (the caller checked it exists). */
  list(scope: Scope, limit: number, startingAfter?: string): Promise<EndpointRow[]> {
    const params: unknown[] = [scope.merchantCode, scope.environment, limit];
    let cursor = '';
    if (startingAfter) {
      params.push(startingAfter);
      cursor = 'AND (created_at, id) < (SELECT created_at, id FROM webhook_endpoints WHERE id = $4)';
    }
    return this.db.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
       WHERE merchant_code = $1 AND environment = $2 AND deleted_at IS NULL ${cursor}
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      params,
    );
  }

  /** The endpoint when it is this merchant's in this environment; deleted ones only when asked for. */
  async find(scope: Scope, id: string, o: { includeDeleted?: boolean } = {}): Promise<EndpointRow | undefined> {
    const rows: EndpointRow[] = await this.db.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
       WHERE id = $1 AND merchant_code = $2 AND environment = $3 ${o.includeDeleted ? '' : 'AND deleted_at IS NULL'}`,
      [id, scope.merchantCode, scope.environment],
    );
    return rows[0];
  }

  /** Applies the changes to a live endpoint; undefined when there is none, 'duplicate-url' when its new URL is taken. */
  async update(scope: Scope, id: string, changes: EndpointChanges): Promise<EndpointRow | 'duplicate-url' | undefined> {
    const params: unknown[] = [id, scope.merchantCode, scope.environment];
    const sets = Object.entries(changes)
      .filter(([, v]) => v !== undefined)
      .map(([column, v]) => {
        params.push(v);
        return `${column} = $${params.length}`;
      });
    if (!sets.length) return this.find(scope, id);
    try {
      const [rows]: [EndpointRow[], number] = await this.db.query(
        `UPDATE webhook_endpoints SET ${sets.join(', ')}
         WHERE id = $1 AND merchant_code = $2 AND environment = $3 AND deleted_at IS NULL
         RETURNING ${ENDPOINT_COLUMNS}`,
        params,
      );
      return rows[0];
    } catch (e) {
      if (uniqueViolation(e) === LIVE_URL_INDEX) return 'duplicate-url';
      throw e;
    }
  }

  /**
   * Gives a live endpoint a new signing secret; the one it replaces keeps signing beside it for
   * `graceSeconds` (real time), none when 0. Undefined when there is no such endpoint.
   */
  async rollEndpointSecret(
    scope: Scope,
    id: string,
    secret: string,
    graceSeconds: number,
  ): Promise<(EndpointRow & { previousSecretExpiresAt: Date | null }) | undefined> {
    const sealed = this.cipher.seal({ endpointId: id }, secret);
    const [rows]: [Array<EndpointRow & { previousSecretExpiresAt: Date | null }>, number] = await this.db.query(
      `UPDATE webhook_endpoints SET ${rollSet()}
       WHERE id = $3 AND merchant_code = $4 AND environment = $5 AND deleted_at IS NULL
       RETURNING ${ENDPOINT_COLUMNS}, previous_secret_expires_at AS "previousSecretExpiresAt"`,
      [sealed.keyId, sealed.blob, id, scope.merchantCode, scope.environment, graceSeconds],
    );
    return rows[0];
  }

  /** Soft delete: the delivery log stays; tries still waiting are given up (dead), so nothing more is sent. */
  async softDelete(scope: Scope, id: string, at: Date): Promise<EndpointRow | undefined> {
    return inTransaction(this.db, async (m) => {
      const [rows]: [EndpointRow[], number] = await m.query(
        `UPDATE webhook_endpoints SET deleted_at = $4
         WHERE id = $1 AND merchant_code = $2 AND environment = $3 AND deleted_at IS NULL
         RETURNING ${ENDPOINT_COLUMNS}`,
        [id, scope.merchantCode, scope.environment, at],
      );
      if (!rows.length) return undefined;
      const attempts = ATTEMPT_MACHINE.bulk('give_up');
      await m.query(
        `UPDATE webhook_attempts SET status = $2, error = 'endpoint_deleted', claimed_until = NULL
         WHERE status = ANY($3) AND delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1)`,
        [id, attempts.to, attempts.from],
      );
      const deliveries = DELIVERY_MACHINE.bulk('give_up');
      await m.query(`UPDATE webhook_deliveries SET status = $2 WHERE endpoint_id = $1 AND status = ANY($3)`, [
        id,
        deliveries.to,
        deliveries.from,
      ]);
      return rows[0];
    });
  }

  /** The account secret, created with `candidate` on first use. */
  async secret(scope: Scope, candidate: string, at: Date): Promise<AccountSecret> {
    const sealed = this.cipher.seal(scope, candidate);
    await this.db.query(
      `INSERT INTO webhook_secrets (merchant_code, environment, secret_key_id, secret_sealed, created_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (merchant_code, environment) DO NOTHING`,
      [scope.merchantCode, scope.environment, sealed.keyId, sealed.blob, at],
    );
    const rows: SealedRow[] = await this.db.query(
      `SELECT ${SECRET_COLUMNS},
         CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS "previousSecretExpiresAt"
       FROM webhook_secrets WHERE merchant_code = $1 AND environment = $2`,
      [scope.merchantCode, scope.environment],
    );
    return this.opened(scope, rows[0]);
  }

  /** A new account secret; the one it replaces keeps signing beside it for `graceSeconds` (real time). */
  async rollSecret(scope: Scope, secret: string, at: Date, graceSeconds: number): Promise<AccountSecret> {
    const sealed = this.cipher.seal(scope, secret);
    const rows: SealedRow[] = await this.db.query(
      `INSERT INTO webhook_secrets AS cur (merchant_code, environment, secret_key_id, secret_sealed, created_at)
       VALUES ($3, $4, $1, $2, $5)
       ON CONFLICT (merchant_code, environment) DO UPDATE
         SET ${rollSet('cur.')},
             created_at = EXCLUDED.created_at
       RETURNING ${SECRET_COLUMNS}, previous_secret_expires_at AS "previousSecretExpiresAt"`,
      [sealed.keyId, sealed.blob, scope.merchantCode, scope.environment, at, graceSeconds],
    );
    return this.opened(scope, rows[0]);
  }

  private opened(scope: Scope, row: SealedRow): AccountSecret {
    const owner = { merchantCode: scope.merchantCode, environment: scope.environment };
    return {
      secret: this.cipher.open(owner, row),
      createdAt: row.createdAt,
      previousSecretExpiresAt: row.previousSecretExpiresAt ?? null,
    };
  }
}
