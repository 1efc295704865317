import { MigrationInterface, QueryRunner } from 'typeorm';

/** The gateway's webhook tables, children first: the webhooks service's database holds them now. */
export const MOVED_WEBHOOK_TABLES = [
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_endpoints',
  'webhook_secrets',
  'webhook_events',
] as const;

/** Where the copy to the webhooks service (apps/migrate/src/webhook-data.ts) notes the rows it copied. */
export const WEBHOOK_COPY_MARK = 'webhook_data_copied';

/**
 * The webhook tables leave the gateway's database, but only when nothing would be lost: they are empty (a new
 * deployment), or the copy to the webhooks service ran and every table still holds exactly the rows it copied.
 * Otherwise the migration stops with what to run (docs/operations.md, Moving webhook data out of the gateway):
 * the migrate entry point copies before it runs this.
 */
export class DropWebhookTables1768400000001 implements MigrationInterface {
  name = 'DropWebhookTables1768400000001';

  async up(q: QueryRunner): Promise<void> {
    const [{ present }] = await q.query(`SELECT to_regclass('webhook_endpoints') IS NOT NULL AS present`);
    if (!present) return;
    const now = await rowCounts(q);
    const [{ marked }] = await q.query(`SELECT to_regclass('${WEBHOOK_COPY_MARK}') IS NOT NULL AS marked`);
    const copied: Array<{ counts: Record<string, number> }> = marked
      ? await q.query(`SELECT counts FROM ${WEBHOOK_COPY_MARK} ORDER BY copied_at DESC LIMIT 1`)
      : [];
    const empty = Object.values(now).every((n) => n === 0);
    const unchanged = copied.length > 0 && MOVED_WEBHOOK_TABLES.every((t) => copied[0].counts[t] === now[t]);
    if (!empty && !unchanged) {
      throw new Error(
        'The gateway database holds webhook data the webhooks service has not got: run the migrate entry point ' +
          '(node dist/apps/migrate/src/main.js), which copies it to WEBHOOKS_DATABASE_URL before it migrates the ' +
          'gateway (docs/operations.md, Moving webhook data out of the gateway)',
      );
    }
    for (const table of MOVED_WEBHOOK_TABLES) await q.query(`DROP TABLE ${table}`);
    await q.query(`DROP TABLE IF EXISTS ${WEBHOOK_COPY_MARK}`);
  }

  async down(): Promise<void> {
    throw new Error('The webhook tables live in the webhooks service now; restore a backup to go back');
  }
}

async function rowCounts(q: QueryRunner): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of MOVED_WEBHOOK_TABLES) {
    const [{ n }] = await q.query(`SELECT count(*)::int AS n FROM ${table}`);
    counts[table] = n;
  }
  return counts;
}
