import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One live endpoint per merchant, environment and URL (a unique index), so one receiver cannot be sent every
 * event several times over. Live URLs are first stored in their canonical form, as new ones are. Duplicates
 * that exist already are merged into the oldest of each group: it keeps its id and secret, subscribes to every
 * type any of them did, and stays enabled when any of them was; the others are deleted as a DELETE would
 * (their delivery logs stay, their waiting tries are given up).
 */
/** The URL as a request to it is sent (the webhooks service's target guard, as it was when this migration ran). */
function canonicalUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

export class WebhookEndpointUniqueUrl1768300000034 implements MigrationInterface {
  name = 'WebhookEndpointUniqueUrl1768300000034';

  async up(q: QueryRunner): Promise<void> {
    const live: { id: string; url: string }[] = await q.query(
      'SELECT id, url FROM webhook_endpoints WHERE deleted_at IS NULL',
    );
    for (const { id, url } of live) {
      if (canonicalUrl(url) !== url) {
        await q.query('UPDATE webhook_endpoints SET url = $2 WHERE id = $1', [id, canonicalUrl(url)]);
      }
    }
    await q.query(
      `CREATE TEMPORARY TABLE duplicate_endpoints ON COMMIT DROP AS
       SELECT id, keep_id FROM (
         SELECT id, first_value(id) OVER w AS keep_id, row_number() OVER w AS n
         FROM webhook_endpoints WHERE deleted_at IS NULL
         WINDOW w AS (PARTITION BY merchant_code, environment, url ORDER BY created_at, id)) ranked
       WHERE n > 1`,
    );
    await q.query(
      `UPDATE webhook_endpoints k
         SET events = CASE WHEN '*' = ANY(m.events) THEN ARRAY['*']::text[] ELSE m.events END,
             disabled = m.disabled
       FROM (SELECT g.keep_id, array_agg(DISTINCT e.type ORDER BY e.type) AS events, bool_and(x.disabled) AS disabled
             FROM (SELECT keep_id, keep_id AS id FROM duplicate_endpoints UNION SELECT keep_id, id FROM duplicate_endpoints) g
             JOIN webhook_endpoints x ON x.id = g.id
             CROSS JOIN unnest(x.events) AS e(type)
             GROUP BY g.keep_id) m
       WHERE k.id = m.keep_id`,
    );
    await q.query(
      `UPDATE webhook_attempts SET status = 'dead', error = 'endpoint merged into an older one', claimed_until = NULL
       WHERE status = 'pending'
         AND delivery_id IN (SELECT d.id FROM webhook_deliveries d JOIN duplicate_endpoints x ON x.id = d.endpoint_id)`,
    );
    await q.query(
      `UPDATE webhook_deliveries SET status = 'dead'
       WHERE status = 'pending' AND endpoint_id IN (SELECT id FROM duplicate_endpoints)`,
    );
    await q.query('UPDATE webhook_endpoints SET deleted_at = now() WHERE id IN (SELECT id FROM duplicate_endpoints)');
    await q.query(
      `CREATE UNIQUE INDEX webhook_endpoints_live_url ON webhook_endpoints (merchant_code, environment, url)
       WHERE deleted_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_endpoints_live_url');
  }
}
