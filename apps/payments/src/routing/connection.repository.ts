import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { ConnectionRequest } from '@app/contracts';
import { Scope } from '../payment/payment.repository';
import { ConnectionEntity } from './connection.entity';

/** The connection every merchant gets in each environment: every currency, every method, last. */
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

  /** Creates the default connection unless the merchant has one under its code already. */
  async ensureDefault(scope: Scope, now: Date): Promise<void> {
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

  /** Creates the connection, or replaces the one with the same code; says which. */
  async upsert(scope: Scope, c: ConnectionRequest, now: Date): Promise<{ created: boolean; row: ConnectionEntity }> {
    const rows: Array<{ id: string; inserted: boolean }> = await this.db.query(
      `INSERT INTO connections (id, ${COLUMNS}, is_default, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, false, $10, $10)
       ON CONFLICT (merchant_code, environment, connection_code) DO UPDATE SET
         connection_name = EXCLUDED.connection_name, acquirer = EXCLUDED.acquirer,
         currencies = EXCLUDED.currencies, methods = EXCLUDED.methods, priority = EXCLUDED.priority,
         updated_at = EXCLUDED.updated_at
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
      ],
    );
    const row = await this.db.getRepository(ConnectionEntity).findOneByOrFail({ id: rows[0].id });
    return { created: rows[0].inserted, row };
  }
}
