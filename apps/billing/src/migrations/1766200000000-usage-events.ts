import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usage events and how far each subscription's usage is billed. No foreign keys to subscriptions and meters, on purpose: a foreign key check takes a
 * FOR KEY SHARE lock on the referenced row for every inserted event, and a busy subscription's row would be
 * locked thousands of times a second. The ingestion checks both exist (in the caller's scope) before it
 * inserts, and neither is ever deleted.
 */
export class CreateUsageEvents1766200000000 implements MigrationInterface {
  name = 'CreateUsageEvents1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE usage_events (
        id uuid PRIMARY KEY,
        subscription_id uuid NOT NULL,
        meter_id uuid NOT NULL,
        quantity bigint NOT NULL CHECK (quantity >= 0),
        occurred_at timestamptz NOT NULL,
        idempotency_key text,
        created_at timestamptz NOT NULL
      )`);
    // Idempotent on (meter, Idempotency-Key); events without a key never collide.
    await q.query(`
      CREATE UNIQUE INDEX usage_events_idempotency ON usage_events (meter_id, idempotency_key)
      WHERE idempotency_key IS NOT NULL`);
    // Rating reads one subscription's period per meter.
    await q.query('CREATE INDEX usage_events_period ON usage_events (subscription_id, meter_id, occurred_at)');
    // How far each subscription's usage has been billed (set by the renewal that rates it): usage dated
    // before it is refused with USAGE_PERIOD_CLOSED. Its own table, so the subscription row stays the
    // lifecycle's; pause, resume or a new card move the current period without billing any usage.
    await q.query(`
      CREATE TABLE usage_billed_through (
        subscription_id uuid PRIMARY KEY,
        billed_through timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE usage_billed_through');
    await q.query('DROP TABLE usage_events');
  }
}
