import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `idempotency_keys` table; every service that keeps keys lists this migration right after the outbox's.
 * The payments and payment-links databases deployed before it have the table already (their services' first
 * migrations made it, in the shape the later ones bring to this one): there it does nothing.
 */
export class CreateIdempotencyKeys1763700000001 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1763700000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS idempotency_keys (
        merchant_code text NOT NULL,
        environment text NOT NULL,
        idempotency_key text NOT NULL,
        operation text NOT NULL,
        request_hash text NOT NULL,
        response_status int,
        response_body json,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (merchant_code, environment, idempotency_key)
      )`);
    await q.query('CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS idempotency_keys');
  }
}

/**
 * Leased keys (IdempotencyService.leased): the id of what the request creates, kept across its attempts, and
 * the end of the lease while it is in progress. Both stay null for keys claimed in a transaction.
 */
export class IdempotencyKeyLeases1768300000000 implements MigrationInterface {
  name = 'IdempotencyKeyLeases1768300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS resource_id uuid,
         ADD COLUMN IF NOT EXISTS reserved_until timestamptz`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE idempotency_keys DROP COLUMN IF EXISTS resource_id, DROP COLUMN IF EXISTS reserved_until',
    );
  }
}
