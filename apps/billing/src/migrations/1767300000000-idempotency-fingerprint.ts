import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key's fingerprint is versioned now (`v2:` and the hash, @app/idempotency), longer than the 64 hex
 * characters of the fingerprint before it, which rows written earlier keep.
 */
export class IdempotencyFingerprint1767300000000 implements MigrationInterface {
  name = 'IdempotencyFingerprint1767300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE billing_idempotency ALTER COLUMN request_hash TYPE text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("DELETE FROM billing_idempotency WHERE request_hash LIKE 'v2:%'");
    await q.query('ALTER TABLE billing_idempotency ALTER COLUMN request_hash TYPE char(64)');
  }
}
