import { Client } from 'pg';
import {
  MOVED_WEBHOOK_TABLES,
  WEBHOOK_COPY_MARK,
} from '../../gateway/src/migrations/1768400000001-drop-webhook-tables';

/** Parents before children: an attempt's delivery, a delivery's endpoint are there before it. */
const COPY_ORDER = [
  'webhook_endpoints',
  'webhook_secrets',
  'webhook_deliveries',
  'webhook_attempts',
  'webhook_events',
] as const satisfies ReadonlyArray<(typeof MOVED_WEBHOOK_TABLES)[number]>;
const BATCH = 1000;

export interface WebhookCopyReport {
  /** Rows read from the gateway per table (every one is in the webhooks database afterwards); {} when none left. */
  copied: Record<string, number>;
  merchants: number;
}

/**
 * Copies the webhook data a gateway database still holds (endpoints, signing secrets, the delivery log, the
 * events of GET /v1/events) and the gateway's merchants into the webhooks service's database, then notes the
 * counts in the gateway (WEBHOOK_COPY_MARK) so that its DropWebhookTables migration may drop them. The rows
 * are read in one snapshot and inserted as they are: the sealed secrets stay sealed (the same
 * WEBHOOK_SECRET_KEYS open them, bound to the same endpoint or merchant), ids and times stay. A row the
 * webhooks database has already is left as it is, so running it again, or after a partial run, is safe.
 * Nothing happens when the gateway's tables are gone (the copy ran and they were dropped) or empty.
 */
export async function copyWebhookData(gatewayUrl: string, webhooksUrl: string): Promise<WebhookCopyReport> {
  const gateway = new Client({ connectionString: gatewayUrl });
  const webhooks = new Client({ connectionString: webhooksUrl });
  await gateway.connect();
  try {
    await webhooks.connect();
    await gateway.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const merchants = await copyRows(
      gateway,
      webhooks,
      'SELECT jsonb_build_object($$merchant_code$$, merchant_code, $$created_at$$, created_at) FROM merchants',
      'webhook_merchants',
    );
    const [{ present }] = (await gateway.query(`SELECT to_regclass('webhook_endpoints') IS NOT NULL AS present`))
      .rows as Array<{ present: boolean }>;
    const copied: Record<string, number> = {};
    if (present) {
      for (const table of COPY_ORDER) {
        copied[table] = await copyRows(gateway, webhooks, `SELECT to_jsonb(t) FROM ${table} t`, table);
      }
    }
    await gateway.query('COMMIT');
    if (present) {
      await gateway.query(
        `CREATE TABLE IF NOT EXISTS ${WEBHOOK_COPY_MARK} (copied_at timestamptz NOT NULL DEFAULT clock_timestamp(), counts jsonb NOT NULL)`,
      );
      await gateway.query(`INSERT INTO ${WEBHOOK_COPY_MARK} (counts) VALUES ($1)`, [JSON.stringify(copied)]);
    }
    return { copied, merchants };
  } finally {
    await gateway.end();
    await webhooks.end();
  }
}

/** Reads `select` (one jsonb row each) through a cursor and inserts the rows into `table`; answers how many. */
async function copyRows(from: Client, to: Client, select: string, table: string): Promise<number> {
  const cursor = `copy_${table}`;
  await from.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${select}`);
  let total = 0;
  for (;;) {
    const { rows } = await from.query(`FETCH ${BATCH} FROM ${cursor}`);
    if (!rows.length) break;
    const batch = rows.map((r: Record<string, unknown>) => Object.values(r)[0]);
    await to.query(
      `INSERT INTO ${table} SELECT * FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb) ON CONFLICT DO NOTHING`,
      [JSON.stringify(batch)],
    );
    total += rows.length;
  }
  await from.query(`CLOSE ${cursor}`);
  return total;
}
