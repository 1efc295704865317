import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Sealed } from '@app/cipher';
import { uuidv7 } from '@app/clock';
import { ConnectionRequest } from '@app/contracts';
import { entitySelect, runStatement, statement } from '@app/database';
import { Scope } from '../payment/payment.repository';
import { ConnectionEntity, CredentialHints } from './connection.entity';

/** Credentials as stored: sealed, with the last four characters of each apart. */
export interface StoredCredentials extends Sealed {
  hints: CredentialHints;
}

/**
 * The connection every merchant gets in sandbox (never in production: docs/connectors.md): the simulator, every
 * currency, every method, last.
 */
export const DEFAULT_CONNECTION = {
  connectionCode: 'sandbox',
  connectionName: 'Sandbox acquirer',
  acquirer: 'sandbox',
  currencies: [] as string[],
  methods: [] as string[],
  priority: 1000,
} as const;

const COLUMNS = `merchant_code, environment, connection_code, connection_name, acquirer, currencies, methods, priority`;

const ENSURE_DEFAULT = statement(
  'connections_ensure_default',
  `INSERT INTO connections (id, ${COLUMNS}, is_default, created_at, updated_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, true, $10, $10)
   ON CONFLICT (merchant_code, environment, connection_code) DO NOTHING`,
);
/** Creates or replaces a connection, its sealed credentials as they were. */
const UPSERT_KEEPING_CREDENTIALS = statement(
  'connections_upsert_keeping_credentials',
  `INSERT INTO connections (id, ${COLUMNS}, is_default, created_at, updated_at, endpoint,
     credentials_key_id, credentials_blob, credential_hints, credentials_updated_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, false, $10, $10, $11, $12, $13, $14, $15)
   ON CONFLICT (merchant_code, environment, connection_code) DO UPDATE SET
     connection_name = EXCLUDED.connection_name, acquirer = EXCLUDED.acquirer,
     currencies = EXCLUDED.currencies, methods = EXCLUDED.methods, priority = EXCLUDED.priority,
     updated_at = EXCLUDED.updated_at, endpoint = EXCLUDED.endpoint
   RETURNING id, (xmax = 0) AS inserted`,
);
/** Creates or replaces a connection with the given credentials (null: none). */
const UPSERT = statement(
  'connections_upsert',
  `INSERT INTO connections (id, ${COLUMNS}, is_default, created_at, updated_at, endpoint,
     credentials_key_id, credentials_blob, credential_hints, credentials_updated_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, false, $10, $10, $11, $12, $13, $14, $15)
   ON CONFLICT (merchant_code, environment, connection_code) DO UPDATE SET
     connection_name = EXCLUDED.connection_name, acquirer = EXCLUDED.acquirer,
     currencies = EXCLUDED.currencies, methods = EXCLUDED.methods, priority = EXCLUDED.priority,
     updated_at = EXCLUDED.updated_at, endpoint = EXCLUDED.endpoint,
     credentials_key_id = EXCLUDED.credentials_key_id, credentials_blob = EXCLUDED.credentials_blob,
     credential_hints = EXCLUDED.credential_hints, credentials_updated_at = EXCLUDED.credentials_updated_at
   RETURNING id, (xmax = 0) AS inserted`,
);
const RESEAL = statement(
  'connections_reseal',
  'UPDATE connections SET credentials_key_id = $2, credentials_blob = $3 WHERE id = $1',
);
const inRoutingOrder = entitySelect(
  ConnectionEntity,
  'connections_in_routing_order',
  'merchant_code = $1 AND environment = $2 ORDER BY priority, created_at, connection_code',
);
const byCode = entitySelect(
  ConnectionEntity,
  'connections_by_code',
  'merchant_code = $1 AND environment = $2 AND connection_code = $3',
);
const byId = entitySelect(ConnectionEntity, 'connections_by_id', 'id = $1');
const staleCredentials = entitySelect(
  ConnectionEntity,
  'connections_stale_credentials',
  'credentials_key_id IS NOT NULL AND credentials_key_id <> $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED',
);

@Injectable()
export class ConnectionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Creates the sandbox default connection unless the merchant has one under its code already. */
  async ensureDefault(scope: Scope & { environment: 'sandbox' }, now: Date): Promise<void> {
    const d = DEFAULT_CONNECTION;
    await runStatement(this.db, ENSURE_DEFAULT, [
      uuidv7(),
      scope.merchantCode,
      scope.environment,
      d.connectionCode,
      d.connectionName,
      d.acquirer,
      d.currencies,
      d.methods,
      d.priority,
      now,
    ]);
  }

  /** In routing order: priority, then the older connection first. */
  list(scope: Scope): Promise<ConnectionEntity[]> {
    return inRoutingOrder(this.db, [scope.merchantCode, scope.environment]);
  }

  async find(scope: Scope, connectionCode: string): Promise<ConnectionEntity | null> {
    const [row] = await byCode(this.db, [scope.merchantCode, scope.environment, connectionCode]);
    return row ?? null;
  }

  async findById(id: string): Promise<ConnectionEntity | null> {
    const [row] = await byId(this.db, [id]);
    return row ?? null;
  }

  /**
   * Creates the connection, or replaces the one with the same code; says which. `credentials` "keep" leaves a
   * replaced connection's sealed credentials as they are; null clears them (the simulator).
   */
  async upsert(
    scope: Scope,
    c: ConnectionRequest,
    credentials: StoredCredentials | null | 'keep',
    now: Date,
  ): Promise<{ created: boolean; row: ConnectionEntity }> {
    const sealed = credentials === 'keep' ? null : credentials;
    const keep = credentials === 'keep';
    const rows = await runStatement<{ id: string; inserted: boolean }>(
      this.db,
      keep ? UPSERT_KEEPING_CREDENTIALS : UPSERT,
      [
        uuidv7(),
        scope.merchantCode,
        scope.environment,
        c.connectionCode,
        c.connectionName,
        c.acquirer,
        c.currencies,
        c.methods,
        c.priority,
        now,
        c.endpoint ?? null,
        sealed?.keyId ?? null,
        sealed?.blob ?? null,
        sealed ? JSON.stringify(sealed.hints) : null,
        sealed ? now : null,
      ],
    );
    const [row] = await byId(this.db, [rows[0].id]);
    return { created: rows[0].inserted, row };
  }

  /**
   * Up to `limit` connections whose credentials are sealed under another key than `currentKeyId`, locked for
   * re-sealing (replicas sweeping at once take different rows), inside the caller's transaction.
   */
  staleCredentials(m: EntityManager, currentKeyId: string, limit: number): Promise<ConnectionEntity[]> {
    return staleCredentials(m, [currentKeyId, limit]);
  }

  /** Re-sealed under the current key; the same credentials, so `credentials_updated_at` stays. */
  async reseal(m: EntityManager, id: string, sealed: Sealed): Promise<void> {
    await runStatement(m, RESEAL, [id, sealed.keyId, sealed.blob]);
  }
}
