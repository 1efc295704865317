import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per subscription and meter, the totals of the usage not yet billed (dated at or after the subscription's
 * `usage_billed_through`, or all of it before its first rating): what ingestion checks a new event against, so
 * usage that would push a period total, its rated amount or the invoice past Number.MAX_SAFE_INTEGER is refused
 * at the door (usage-bound.ts). Ingestion adds to it in the statement that inserts the events; a renewal that
 * rates a period recomputes it from the events still open. Filled here from the events already recorded.
 * Each pair's totals are spread over up to 8 rows (`shard`, picked per transaction) and read as their sum, so
 * concurrent ingestion for a busy subscription does not queue on one row's lock.
 */
export class UsageOpenTotals1767500000000 implements MigrationInterface {
  name = 'UsageOpenTotals1767500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE usage_open_totals (
        subscription_id uuid NOT NULL,
        meter_id uuid NOT NULL,
        shard smallint NOT NULL,
        sum numeric NOT NULL,
        count bigint NOT NULL,
        max bigint NOT NULL,
        PRIMARY KEY (subscription_id, meter_id, shard)
      )`);
    await q.query(`
      INSERT INTO usage_open_totals (subscription_id, meter_id, shard, sum, count, max)
      SELECT e.subscription_id, e.meter_id, 0, sum(e.quantity), count(*), max(e.quantity)
        FROM usage_events e
        LEFT JOIN usage_billed_through b ON b.subscription_id = e.subscription_id
       WHERE b.billed_through IS NULL OR e.occurred_at >= b.billed_through
       GROUP BY e.subscription_id, e.meter_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE usage_open_totals');
  }
}
