import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Sealed } from '@app/cipher';
import { uuidv7 } from '@app/clock';
import { ConnectionRequest } from '@app/contracts';
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

@Injectable()
export class ConnectionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Creates the sandbox default connection unless the merchant has one under its code already. */
  async ensureDefault(scope: Scope & { environment: 'sandbox' }, now: Date): Promise<void> {
    const d = DEFAULT_CONNECTION;
    await this.db.query(
      `INSERT INTO connections (id, ${COLUMNS}, is_default, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, true, $10, $10)
       ON CONFLICT (merchant_code, environment, connection_code) DO NOTHING`,
      [
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
      ],
    );
  }

  /** In routing order: priority, then the older connection first. */
  list(scope: Scope): Promise<ConnectionEntity[]> {
    return this.db.getRepository(ConnectionEntity).find({
      where: { merchantCode: scope.merchantCode, environment: scope.environment },
      order: { priority: 'ASC', createdAt: 'ASC', connectionCode: 'ASC' },
    });
  }

  find(scope: Scope, connectionCode: string): Promise<ConnectionEntity | null> {
    return this.db.getRepository(ConnectionEntity).findOneBy({
      merchantCode: scope.merchantCode,
      environment: scope.environment,
      connectionCode,
    });
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
    const rows: Array<{ id: string; inserted: boolean }> = await this.db.query(
      `INSERT INTO connections (id, ${COLUMNS}, is_default, created_at, updated_at, endpoint,
         credentials_key_id, credentials_blob, credential_hints, credentials_updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, false, $10, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (merchant_code, environment, connection_code) DO UPDATE SET
         connection_name = EXCLUDED.connection_name, acquirer = EXCLUDED.acquirer,
         currencies = EXCLUDED.currencies, methods = EXCLUDED.methods, priority = EXCLUDED.priority,
         updated_at = EXCLUDED.updated_at, endpoint = EXCLUDED.endpoint
         ${
           keep
             ? ''
             : `, credentials_key_id = EXCLUDED.credentials_key_id, credentials_blob = EXCLUDED.credentials_blob,
                credential_hints = EXCLUDED.credential_hints, credentials_updated_at = EXCLUDED.credentials_updated_at`
         }
       RETURNING id, (xmax = 0) AS inserted`,
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
    const row = await this.db.getRepository(ConnectionEntity).findOneByOrFail({ id: rows[0].id });
    return { created: rows[0].inserted, row };
  }

  /**
   * Up to `limit` connections whose credentials are sealed under another key than `currentKeyId`, locked for
   * re-sealing (replicas sweeping at once take different rows), inside the caller's transaction.
   */
  staleCredentials(m: EntityManager, currentKeyId: string, limit: number): Promise<ConnectionEntity[]> {
    return m
      .getRepository(ConnectionEntity)
      .createQueryBuilder('c')
      .where('c.credentials_key_id IS NOT NULL AND c.credentials_key_id <> :currentKeyId', { currentKeyId })
      .orderBy('c.id')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  /** Re-sealed under the current key; the same credentials, so `credentials_updated_at` stays. */
  async reseal(m: EntityManager, id: string, sealed: Sealed): Promise<void> {
    await m.query(`UPDATE connections SET credentials_key_id = $2, credentials_blob = $3 WHERE id = $1`, [
      id,
      sealed.keyId,
      sealed.blob,
    ]);
  }
}
