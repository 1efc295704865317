import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Connector flows: an acquirer attempt whose answer was lost after sending is marked (`outcome_unknown_at`)
 * and found by its request reference when the provider's webhook settles it; inbound provider webhook events
 * are kept once per connection and event id (de-duplication); a payment keeps the 3-D Secure result of its
 * approval, and a 3DS session the provider's own challenge page (`provider_action`); a capture, refund or cancel the provider accepted and settles later by webhook keeps its attempt,
 * marked with the provider's reference of the modification (`accepted_reference`).
 */
export class ConnectorFlows1769000300001 implements MigrationInterface {
  name = 'ConnectorFlows1769000300001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE acquirer_attempts ADD COLUMN outcome_unknown_at timestamptz');
    await q.query('ALTER TABLE acquirer_attempts ADD COLUMN accepted_reference text');
    await q.query('CREATE INDEX acquirer_attempts_request_reference ON acquirer_attempts (request_reference)');
    await q.query(`CREATE TABLE provider_webhook_events (
      connection_id uuid NOT NULL,
      event_id text NOT NULL,
      kind text NOT NULL,
      provider_event text NOT NULL,
      acquirer_reference text NOT NULL,
      payment_id uuid,
      applied text NOT NULL,
      received_at timestamptz NOT NULL,
      PRIMARY KEY (connection_id, event_id)
    )`);
    await q.query('ALTER TABLE payments ADD COLUMN three_d_secure jsonb');
    await q.query('ALTER TABLE payment_sessions ADD COLUMN provider_action jsonb');
    await q.query('CREATE INDEX payments_acquirer_reference ON payments (acquirer, acquirer_reference)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX payments_acquirer_reference');
    await q.query('ALTER TABLE payment_sessions DROP COLUMN provider_action');
    await q.query('ALTER TABLE payments DROP COLUMN three_d_secure');
    await q.query('DROP TABLE provider_webhook_events');
    await q.query('DROP INDEX acquirer_attempts_request_reference');
    await q.query('ALTER TABLE acquirer_attempts DROP COLUMN accepted_reference');
    await q.query('ALTER TABLE acquirer_attempts DROP COLUMN outcome_unknown_at');
  }
}
