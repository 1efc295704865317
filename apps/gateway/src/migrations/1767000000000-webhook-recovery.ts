import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks a merchant can recover from: an endpoint can be described and disabled; a rolled secret (of an
 * endpoint or of the account) stays live beside the new one until `previous_secret_expires_at`; the events
 * the gateway received are kept for 30 days for `GET /v1/events`.
 */
export class WebhookRecovery1767000000000 implements MigrationInterface {
  name = 'WebhookRecovery1767000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhook_endpoints
         ADD COLUMN description text,
         ADD COLUMN disabled boolean NOT NULL DEFAULT false,
         ADD COLUMN previous_secret_key_id text,
         ADD COLUMN previous_secret_sealed bytea,
         ADD COLUMN previous_secret_expires_at timestamptz`,
    );
    await q.query(
      `ALTER TABLE webhook_secrets
         ADD COLUMN previous_secret_key_id text,
         ADD COLUMN previous_secret_sealed bytea,
         ADD COLUMN previous_secret_expires_at timestamptz`,
    );
    await q.query(
      `CREATE TABLE webhook_events (
         id uuid PRIMARY KEY,
         type text NOT NULL,
         merchant_code text NOT NULL,
         environment text NOT NULL,
         created_at timestamptz NOT NULL,
         body text NOT NULL,
         received_at timestamptz NOT NULL DEFAULT now())`,
    );
    await q.query(
      `CREATE INDEX webhook_events_by_merchant
         ON webhook_events (merchant_code, environment, created_at DESC, id DESC)`,
    );
    await q.query('CREATE INDEX webhook_events_by_received ON webhook_events (received_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_events');
    await q.query(
      `ALTER TABLE webhook_secrets DROP COLUMN previous_secret_key_id, DROP COLUMN previous_secret_sealed,
         DROP COLUMN previous_secret_expires_at`,
    );
    await q.query(
      `ALTER TABLE webhook_endpoints DROP COLUMN description, DROP COLUMN disabled,
         DROP COLUMN previous_secret_key_id, DROP COLUMN previous_secret_sealed, DROP COLUMN previous_secret_expires_at`,
    );
  }
}
