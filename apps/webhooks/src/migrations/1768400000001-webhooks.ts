import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhooks service's tables, in the shape the gateway's database held them when the service took them over
 * (docs/operations.md, Moving webhook data out of the gateway): endpoints and the account signing secrets
 * (sealed with WEBHOOK_SECRET_KEYS, a rolled one live beside the new until `previous_secret_expires_at`), the
 * delivery log (one delivery per event and target; one attempt row per try, the pending row the next try, claimed
 * with FOR UPDATE SKIP LOCKED and a lease) and the events kept 30 days for GET /v1/events.
 */
export class Webhooks1768400000001 implements MigrationInterface {
  name = 'Webhooks1768400000001';

  async up(q: QueryRunner): Promise<void> {
    // The merchants the gateway created: events of others (another deployment on the same NATS) are not delivered.
    await q.query(`
      CREATE TABLE webhook_merchants (
        merchant_code text PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        url text NOT NULL,
        events text[] NOT NULL,
        created_at timestamptz NOT NULL,
        deleted_at timestamptz,
        secret_key_id text NOT NULL,
        secret_sealed bytea NOT NULL,
        description text,
        disabled boolean NOT NULL DEFAULT false,
        previous_secret_key_id text,
        previous_secret_sealed bytea,
        previous_secret_expires_at timestamptz
      )`);
    await q.query(`
      CREATE INDEX webhook_endpoints_scope ON webhook_endpoints (merchant_code, environment, created_at DESC, id DESC)
      WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE UNIQUE INDEX webhook_endpoints_live_url ON webhook_endpoints (merchant_code, environment, url)
      WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE webhook_secrets (
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        created_at timestamptz NOT NULL,
        secret_key_id text NOT NULL,
        secret_sealed bytea NOT NULL,
        previous_secret_key_id text,
        previous_secret_sealed bytea,
        previous_secret_expires_at timestamptz,
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
        trace_parent text,
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
    await q.query(`
      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY,
        type text NOT NULL,
        merchant_code text NOT NULL,
        environment text NOT NULL,
        created_at timestamptz NOT NULL,
        body text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      'CREATE INDEX webhook_events_by_merchant ON webhook_events (merchant_code, environment, created_at DESC, id DESC)',
    );
    await q.query('CREATE INDEX webhook_events_by_received ON webhook_events (received_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_events');
    await q.query('DROP TABLE webhook_attempts');
    await q.query('DROP TABLE webhook_deliveries');
    await q.query('DROP TABLE webhook_secrets');
    await q.query('DROP TABLE webhook_endpoints');
    await q.query('DROP TABLE webhook_merchants');
  }
}
