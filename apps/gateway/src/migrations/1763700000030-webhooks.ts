import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchant webhook endpoints, the account signing secrets, and the delivery log: one delivery per
 * (event, target), unique so that a redelivered event never makes a second one, and one attempt row per try
 * (the pending row is the next try; the worker claims it with FOR UPDATE SKIP LOCKED and a lease).
 */
export class Webhooks1763700000030 implements MigrationInterface {
  name = 'Webhooks1763700000030';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        url text NOT NULL,
        events text[] NOT NULL,
        secret text NOT NULL,
        created_at timestamptz NOT NULL,
        deleted_at timestamptz
      )`);
    await q.query(`
      CREATE INDEX webhook_endpoints_scope ON webhook_endpoints (merchant_code, environment, created_at DESC, id DESC)
      WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE webhook_secrets (
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        secret text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (merchant_code, environment)
      )`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        merchant_code text NOT NULL,
        environment text NOT NULL,
        target text NOT NULL,
        endpoint_id uuid REFERENCES webhook_endpoints(id),
        url text NOT NULL,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'dead')),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT webhook_deliveries_event_target UNIQUE (event_id, target)
      )`);
    await q.query('CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id)');
    await q.query(`
      CREATE TABLE webhook_attempts (
        id uuid PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt int NOT NULL CHECK (attempt >= 1),
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'dead')),
        due_at timestamptz NOT NULL,
        claimed_until timestamptz,
        attempted_at timestamptz,
        response_status int,
        duration_ms int,
        error text,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT webhook_attempts_delivery_attempt UNIQUE (delivery_id, attempt)
      )`);
    await q.query(`CREATE INDEX webhook_attempts_due ON webhook_attempts (due_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_attempts');
    await q.query('DROP TABLE webhook_deliveries');
    await q.query('DROP TABLE webhook_secrets');
    await q.query('DROP TABLE webhook_endpoints');
  }
}
