import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookSecret } from './webhook-secret.entity';

export type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

const ENDPOINT_COLUMNS = `id, merchant_code AS "merchantCode", environment, url, events, secret,
  created_at AS "createdAt", deleted_at AS "deletedAt"`;

/** Endpoints and account secrets; every query is scoped by merchant and environment. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    await this.db.getRepository(WebhookEndpoint).insert(endpoint);
  }

  /** Live endpoints, newest first, after the cursor endpoint when given (the caller checked it exists). */
  list(scope: Scope, limit: number, startingAfter?: string): Promise<WebhookEndpoint[]> {
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
  async find(scope: Scope, id: string, o: { includeDeleted?: boolean } = {}): Promise<WebhookEndpoint | undefined> {
    const rows: WebhookEndpoint[] = await this.db.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
       WHERE id = $1 AND merchant_code = $2 AND environment = $3 ${o.includeDeleted ? '' : 'AND deleted_at IS NULL'}`,
      [id, scope.merchantCode, scope.environment],
    );
    return rows[0];
  }

  /** Soft delete: the delivery log stays; tries still waiting are given up (dead), so nothing more is sent. */
  async softDelete(scope: Scope, id: string, at: Date): Promise<WebhookEndpoint | undefined> {
    return this.db.transaction(async (m) => {
      const [rows]: [WebhookEndpoint[], number] = await m.query(
        `UPDATE webhook_endpoints SET deleted_at = $4
         WHERE id = $1 AND merchant_code = $2 AND environment = $3 AND deleted_at IS NULL
         RETURNING ${ENDPOINT_COLUMNS}`,
        [id, scope.merchantCode, scope.environment, at],
      );
      if (!rows.length) return undefined;
      await m.query(
        `UPDATE webhook_attempts SET status = 'dead', error = 'endpoint deleted', claimed_until = NULL
         WHERE status = 'pending' AND delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1)`,
        [id],
      );
      await m.query(`UPDATE webhook_deliveries SET status = 'dead' WHERE endpoint_id = $1 AND status = 'pending'`, [
        id,
      ]);
      return rows[0];
    });
  }

  /** The account secret, created with `candidate` on first use. */
  async secret(scope: Scope, candidate: string, at: Date): Promise<WebhookSecret> {
    await this.db.query(
      `INSERT INTO webhook_secrets (merchant_code, environment, secret, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_code, environment) DO NOTHING`,
      [scope.merchantCode, scope.environment, candidate, at],
    );
    const rows: WebhookSecret[] = await this.db.query(
      `SELECT merchant_code AS "merchantCode", environment, secret, created_at AS "createdAt"
       FROM webhook_secrets WHERE merchant_code = $1 AND environment = $2`,
      [scope.merchantCode, scope.environment],
    );
    return rows[0];
  }

  async rollSecret(scope: Scope, secret: string, at: Date): Promise<WebhookSecret> {
    const rows: WebhookSecret[] = await this.db.query(
      `INSERT INTO webhook_secrets (merchant_code, environment, secret, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_code, environment) DO UPDATE SET secret = EXCLUDED.secret, created_at = EXCLUDED.created_at
       RETURNING merchant_code AS "merchantCode", environment, secret, created_at AS "createdAt"`,
      [scope.merchantCode, scope.environment, secret, at],
    );
    return rows[0];
  }
}
