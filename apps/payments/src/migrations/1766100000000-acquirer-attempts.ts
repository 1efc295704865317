import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reserve, call, record: the acquirer is called between two short transactions. An Idempotency-Key is
 * recorded as in progress when its request is reserved (no answer yet: NULL response), a new payment is
 * inserted as `reserved` (it holds its order and payment codes through the existing unique indexes, and no
 * read shows it), and each call in flight has an attempt row naming its request reference, for the recovery
 * sweep to ask the acquirer about after a crash. Recording deletes the attempt row.
 */
export class AcquirerAttempts1766100000000 implements MigrationInterface {
  name = 'AcquirerAttempts1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE idempotency_keys ALTER COLUMN response_status DROP NOT NULL, ALTER COLUMN response_body DROP NOT NULL',
    );
    await q.query(`
      CREATE TABLE acquirer_attempts (
        id uuid PRIMARY KEY,
        payment_id uuid NOT NULL,
        merchant_code text NOT NULL,
        environment text NOT NULL,
        operation text NOT NULL,
        request_reference text NOT NULL,
        connection_code text NOT NULL,
        acquirer text NOT NULL,
        idempotency_key text,
        detail jsonb NOT NULL DEFAULT '{}',
        reserved_at timestamptz NOT NULL DEFAULT now(),
        -- The recovery sweep's lease while it asks the acquirer (no transaction is held across that call).
        claimed_until timestamptz
      )`);
    await q.query('CREATE INDEX acquirer_attempts_payment ON acquirer_attempts (payment_id)');
    await q.query('CREATE INDEX acquirer_attempts_reserved ON acquirer_attempts (reserved_at)');
    // The sandbox acquirer's own record of what it did per request reference (see DatabaseLedger).
    await q.query(`
      CREATE TABLE sandbox_acquirer_ledger (
        reference text PRIMARY KEY,
        answer jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sandbox_acquirer_ledger');
    await q.query('DROP TABLE acquirer_attempts');
    await q.query("DELETE FROM payments WHERE status = 'reserved'");
    await q.query('DELETE FROM idempotency_keys WHERE response_status IS NULL');
    await q.query(
      'ALTER TABLE idempotency_keys ALTER COLUMN response_status SET NOT NULL, ALTER COLUMN response_body SET NOT NULL',
    );
  }
}
