import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WebhookEnvelope } from '@app/contracts';
import { runStatement, statement } from '@app/database';

export interface EventFilter {
  type?: string;
  createdFrom?: string;
  createdTo?: string;
}

type Scope = { merchantCode: string; environment: string };

const RECORD = statement(
  'webhook_events_record',
  `INSERT INTO webhook_events (id, type, merchant_code, environment, created_at, body)
   SELECT id, type, merchant_code, environment, created_at, body
   FROM json_to_recordset($1::json)
     AS e(id uuid, type text, merchant_code text, environment text, created_at timestamptz, body text)
   ON CONFLICT (id) DO NOTHING`,
);
/** $4 type, $5 created from, $6 created before, $7 the last id of the previous page: each null when not given. */
const PAGE = statement(
  'webhook_events_page',
  `SELECT body FROM webhook_events
    WHERE merchant_code = $1 AND environment = $2
      AND ($4::text IS NULL OR type = $4)
      AND ($5::timestamptz IS NULL OR created_at >= $5)
      AND ($6::timestamptz IS NULL OR created_at < $6)
      AND ($7::uuid IS NULL OR (created_at, id) < (SELECT created_at, id FROM webhook_events WHERE id = $7))
    ORDER BY created_at DESC, id DESC LIMIT $3`,
);
const FIND = statement(
  'webhook_events_find',
  'SELECT body FROM webhook_events WHERE id = $1 AND merchant_code = $2 AND environment = $3',
);
const PRUNE = statement(
  'webhook_events_prune',
  `WITH pruned AS (
     DELETE FROM webhook_events WHERE id IN (
       SELECT id FROM webhook_events WHERE received_at < now() - make_interval(days => $1)
       ORDER BY received_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1)
   SELECT count(*)::int AS n FROM pruned`,
);

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
    await runStatement(this.db, RECORD, [JSON.stringify(rows)]);
  }

  /** Bodies newest first, after the cursor event when given (the caller checked it is in scope). */
  async list(scope: Scope, filter: EventFilter, limit: number, startingAfter?: string): Promise<string[]> {
    const rows = await runStatement<{ body: string }>(this.db, PAGE, [
      scope.merchantCode,
      scope.environment,
      limit,
      filter.type || null,
      filter.createdFrom || null,
      filter.createdTo || null,
      startingAfter || null,
    ]);
    return rows.map((r) => r.body);
  }

  async find(scope: Scope, id: string): Promise<string | undefined> {
    const rows = await runStatement<{ body: string }>(this.db, FIND, [id, scope.merchantCode, scope.environment]);
    return rows[0]?.body;
  }

  /**
   * Deletes at most `limit` events received more than `retentionDays` ago (real time), claimed with
   * FOR UPDATE SKIP LOCKED so replicas share the work; answers how many went.
   */
  async prune(retentionDays: number, limit: number): Promise<number> {
    const [{ n }] = await runStatement<{ n: number }>(this.db, PRUNE, [retentionDays, limit]);
    return n;
  }
}
