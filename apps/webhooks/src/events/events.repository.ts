import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WebhookEnvelope } from '@app/contracts';

export interface EventFilter {
  type?: string;
  createdFrom?: string;
  createdTo?: string;
}

type Scope = { merchantCode: string; environment: string };

/** The events this service received, per merchant and environment, kept for `GET /v1/events`. */
@Injectable()
export class EventsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores events with the bytes their deliveries carry; a redelivered event is stored once. */
  async record(events: Array<{ envelope: WebhookEnvelope; body: string }>): Promise<void> {
    if (!events.length) return;
    // One JSON parameter: pg would escape every character of the bodies to build a text[] literal.
    const rows = events.map(({ envelope: e, body }) => ({
      id: e.id,
      type: e.type,
      merchant_code: e.merchantCode,
      environment: e.environment,
      created_at: e.createdAt,
      body,
    }));
    await this.db.query(
      `INSERT INTO webhook_events (id, type, merchant_code, environment, created_at, body)
       SELECT id, type, merchant_code, environment, created_at, body
       FROM json_to_recordset($1::json)
         AS e(id uuid, type text, merchant_code text, environment text, created_at timestamptz, body text)
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }

  /** Bodies newest first, after the cursor event when given (the caller checked it is in scope). */
  async list(scope: Scope, filter: EventFilter, limit: number, startingAfter?: string): Promise<string[]> {
    const params: unknown[] = [scope.merchantCode, scope.environment, limit];
    const where: string[] = [];
    const add = (sql: string, value: unknown): void => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.type) add('type = ?', filter.type);
    if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
    if (filter.createdTo) add('created_at < ?', filter.createdTo);
    if (startingAfter)
      add('(created_at, id) < (SELECT created_at, id FROM webhook_events WHERE id = ?)', startingAfter);
    const rows: Array<{ body: string }> = await this.db.query(
      `SELECT body FROM webhook_events
       WHERE merchant_code = $1 AND environment = $2 ${where.map((w) => `AND ${w}`).join(' ')}
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      params,
    );
    return rows.map((r) => r.body);
  }

  async find(scope: Scope, id: string): Promise<string | undefined> {
    const rows: Array<{ body: string }> = await this.db.query(
      'SELECT body FROM webhook_events WHERE id = $1 AND merchant_code = $2 AND environment = $3',
      [id, scope.merchantCode, scope.environment],
    );
    return rows[0]?.body;
  }

  /**
   * Deletes at most `limit` events received more than `retentionDays` ago (real time), claimed with
   * FOR UPDATE SKIP LOCKED so replicas share the work; answers how many went.
   */
  async prune(retentionDays: number, limit: number): Promise<number> {
    const [, count]: [unknown, number] = await this.db.query(
      `DELETE FROM webhook_events WHERE id IN (
         SELECT id FROM webhook_events WHERE received_at < now() - make_interval(days => $1)
         ORDER BY received_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [retentionDays, limit],
    );
    return count;
  }
}
