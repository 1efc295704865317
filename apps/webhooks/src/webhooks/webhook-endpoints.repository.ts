import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { inTransaction, runStatement, statement, uniqueViolation } from '@app/database';
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

/** A row type as runStatement answers it. */
type Row<T> = T & Record<string, unknown>;

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

const LOCK_SCOPE = statement(
  'webhook_endpoints_lock_scope',
  `SELECT pg_advisory_xact_lock(${ENDPOINTS_LOCK_CLASS}, hashtext($1 || '/' || $2))`,
);
const COUNT_LIVE = statement(
  'webhook_endpoints_count_live',
  `SELECT count(*)::int AS live FROM webhook_endpoints
    WHERE merchant_code = $1 AND environment = $2 AND deleted_at IS NULL`,
);
const INSERT = statement(
  'webhook_endpoints_insert',
  `INSERT INTO webhook_endpoints (id, merchant_code, environment, url, events, description, disabled,
     secret_key_id, secret_sealed, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
   ON CONFLICT (merchant_code, environment, url) WHERE deleted_at IS NULL DO NOTHING
   RETURNING id`,
);
/** $4: the last id of the previous page, or null. */
const PAGE = statement(
  'webhook_endpoints_page',
  `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
    WHERE merchant_code = $1 AND environment = $2 AND deleted_at IS NULL
      AND ($4::uuid IS NULL OR (created_at, id) < (SELECT created_at, id FROM webhook_endpoints WHERE id = $4))
    ORDER BY created_at DESC, id DESC LIMIT $3`,
);
const FIND_LIVE = statement(
  'webhook_endpoints_find_live',
  `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
    WHERE id = $1 AND merchant_code = $2 AND environment = $3 AND deleted_at IS NULL`,
);
const FIND_ANY = statement(
  'webhook_endpoints_find_any',
  `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND merchant_code = $2 AND environment = $3`,
);
/** Each change as a flag (given) and its value: $4/$5 url, $6/$7 events, $8/$9 description, $10/$11 disabled. */
const UPDATE = statement(
  'webhook_endpoints_update',
  `UPDATE webhook_endpoints
      SET url = CASE WHEN $4::boolean THEN $5::text ELSE url END,
          events = CASE WHEN $6::boolean THEN $7::text[] ELSE events END,
          description = CASE WHEN $8::boolean THEN $9::text ELSE description END,
          disabled = CASE WHEN $10::boolean THEN $11::boolean ELSE disabled END
    WHERE id = $1 AND merchant_code = $2 AND environment = $3 AND deleted_at IS NULL
    RETURNING ${ENDPOINT_COLUMNS}`,
);
const ROLL_ENDPOINT_SECRET = statement(
  'webhook_endpoints_roll_secret',
  `UPDATE webhook_endpoints SET ${rollSet()}
    WHERE id = $3 AND merchant_code = $4 AND environment = $5 AND deleted_at IS NULL
    RETURNING ${ENDPOINT_COLUMNS}, previous_secret_expires_at AS "previousSecretExpiresAt"`,
);
const SOFT_DELETE = statement(
  'webhook_endpoints_soft_delete',
  `UPDATE webhook_endpoints SET deleted_at = $4
    WHERE id = $1 AND merchant_code = $2 AND environment = $3 AND deleted_at IS NULL
    RETURNING ${ENDPOINT_COLUMNS}`,
);
const GIVE_UP_ATTEMPTS = statement(
  'webhook_attempts_give_up_endpoint',
  `UPDATE webhook_attempts SET status = $2, error = 'endpoint_deleted', claimed_until = NULL
    WHERE status = ANY($3) AND delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1)`,
);
const GIVE_UP_DELIVERIES = statement(
  'webhook_deliveries_give_up_endpoint',
  'UPDATE webhook_deliveries SET status = $2 WHERE endpoint_id = $1 AND status = ANY($3)',
);
const INSERT_SECRET = statement(
  'webhook_secrets_insert',
  `INSERT INTO webhook_secrets (merchant_code, environment, secret_key_id, secret_sealed, created_at)
   VALUES ($1, $2, $3, $4, $5) ON CONFLICT (merchant_code, environment) DO NOTHING`,
);
const SECRET = statement(
  'webhook_secrets_find',
  `SELECT ${SECRET_COLUMNS},
     CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS "previousSecretExpiresAt"
   FROM webhook_secrets WHERE merchant_code = $1 AND environment = $2`,
);
const ROLL_SECRET = statement(
  'webhook_secrets_roll',
  `INSERT INTO webhook_secrets AS cur (merchant_code, environment, secret_key_id, secret_sealed, created_at)
   VALUES ($3, $4, $1, $2, $5)
   ON CONFLICT (merchant_code, environment) DO UPDATE
     SET ${rollSet('cur.')},
         created_at = EXCLUDED.created_at
   RETURNING ${SECRET_COLUMNS}, previous_secret_expires_at AS "previousSecretExpiresAt"`,
);

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
      await runStatement(m, LOCK_SCOPE, [endpoint.merchantCode, endpoint.environment]);
      const [{ live }] = await runStatement<{ live: number }>(m, COUNT_LIVE, [
        endpoint.merchantCode,
        endpoint.environment,
      ]);
      if (live >= max) return 'limit';
      const inserted = await runStatement(m, INSERT, [
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
      ]);
      return inserted.length ? undefined : 'duplicate-url';
    });
  }

  /** Live endpoints, newest first, after the cursor endpoint when given (the caller checked it exists). */
  list(scope: Scope, limit: number, startingAfter?: string): Promise<EndpointRow[]> {
    return runStatement<Row<EndpointRow>>(this.db, PAGE, [
      scope.merchantCode,
      scope.environment,
      limit,
      startingAfter ?? null,
    ]);
  }

  /** The endpoint when it is this merchant's in this environment; deleted ones only when asked for. */
  async find(scope: Scope, id: string, o: { includeDeleted?: boolean } = {}): Promise<EndpointRow | undefined> {
    const st = o.includeDeleted ? FIND_ANY : FIND_LIVE;
    const [row] = await runStatement<Row<EndpointRow>>(this.db, st, [id, scope.merchantCode, scope.environment]);
    return row;
  }

  /** Applies the changes to a live endpoint; undefined when there is none, 'duplicate-url' when its new URL is taken. */
  async update(scope: Scope, id: string, changes: EndpointChanges): Promise<EndpointRow | 'duplicate-url' | undefined> {
    const given = (v: unknown): boolean => v !== undefined;
    if (![changes.url, changes.events, changes.description, changes.disabled].some(given)) return this.find(scope, id);
    try {
      const [row] = await runStatement<Row<EndpointRow>>(this.db, UPDATE, [
        id,
        scope.merchantCode,
        scope.environment,
        given(changes.url),
        changes.url ?? null,
        given(changes.events),
        changes.events ?? null,
        given(changes.description),
        changes.description ?? null,
        given(changes.disabled),
        changes.disabled ?? null,
      ]);
      return row;
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
    const values = [sealed.keyId, sealed.blob, id, scope.merchantCode, scope.environment, graceSeconds];
    const [row] = await runStatement<Row<EndpointRow & { previousSecretExpiresAt: Date | null }>>(
      this.db,
      ROLL_ENDPOINT_SECRET,
      values,
    );
    return row;
  }

  /** Soft delete: the delivery log stays; tries still waiting are given up (dead), so nothing more is sent. */
  async softDelete(scope: Scope, id: string, at: Date): Promise<EndpointRow | undefined> {
    return inTransaction(this.db, async (m) => {
      const rows = await runStatement<Row<EndpointRow>>(m, SOFT_DELETE, [
        id,
        scope.merchantCode,
        scope.environment,
        at,
      ]);
      if (!rows.length) return undefined;
      const attempts = ATTEMPT_MACHINE.bulk('give_up');
      await runStatement(m, GIVE_UP_ATTEMPTS, [id, attempts.to, attempts.from]);
      const deliveries = DELIVERY_MACHINE.bulk('give_up');
      await runStatement(m, GIVE_UP_DELIVERIES, [id, deliveries.to, deliveries.from]);
      return rows[0];
    });
  }

  /** The account secret, created with `candidate` on first use. */
  async secret(scope: Scope, candidate: string, at: Date): Promise<AccountSecret> {
    const sealed = this.cipher.seal(scope, candidate);
    await runStatement(this.db, INSERT_SECRET, [scope.merchantCode, scope.environment, sealed.keyId, sealed.blob, at]);
    const rows = await runStatement<Row<SealedRow>>(this.db, SECRET, [scope.merchantCode, scope.environment]);
    return this.opened(scope, rows[0]);
  }

  /** A new account secret; the one it replaces keeps signing beside it for `graceSeconds` (real time). */
  async rollSecret(scope: Scope, secret: string, at: Date, graceSeconds: number): Promise<AccountSecret> {
    const sealed = this.cipher.seal(scope, secret);
    const values = [sealed.keyId, sealed.blob, scope.merchantCode, scope.environment, at, graceSeconds];
    const rows = await runStatement<Row<SealedRow>>(this.db, ROLL_SECRET, values);
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
