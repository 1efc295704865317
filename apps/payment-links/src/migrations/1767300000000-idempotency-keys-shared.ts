import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The link's Idempotency-Keys take the shape every service's `idempotency_keys` has (@app/idempotency): the
 * operation a key was used with and the answer's status, `null` while the request is in progress. Every key
 * written before was a link creation answered in the same transaction. A database created since the table came
 * from @app/idempotency (CreateIdempotencyKeys1763700000001) has this shape already.
 */
export class IdempotencyKeysShared1767300000000 implements MigrationInterface {
  name = 'IdempotencyKeysShared1767300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS operation text NOT NULL DEFAULT 'payment_link.create',
         ADD COLUMN IF NOT EXISTS response_status int`,
    );
    await q.query('UPDATE idempotency_keys SET response_status = 201 WHERE response_body IS NOT NULL');
    await q.query('ALTER TABLE idempotency_keys ALTER COLUMN operation DROP DEFAULT');
    await q.query('CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX idempotency_keys_created');
    await q.query('ALTER TABLE idempotency_keys DROP COLUMN operation, DROP COLUMN response_status');
  }
}
