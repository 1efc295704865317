import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The relay now locks rows for the length of a round instead of leasing them, so `claimed_until` goes; the
 * envelope is stored as `json` (the text as written, validated) since it is only ever read back whole.
 */
export class LeanOutbox1765000000000 implements MigrationInterface {
  name = 'LeanOutbox1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ALTER COLUMN envelope TYPE json USING envelope::json');
    await q.query('ALTER TABLE outbox DROP COLUMN claimed_until');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ADD COLUMN claimed_until timestamptz');
    await q.query('ALTER TABLE outbox ALTER COLUMN envelope TYPE jsonb USING envelope::jsonb');
  }
}
