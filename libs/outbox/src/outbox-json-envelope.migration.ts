import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The envelope is stored as `json` (the text as written, validated) instead of `jsonb`: it is only ever read
 * back whole, so parsing it into jsonb on insert and printing it again for the relay was wasted work.
 */
export class OutboxJsonEnvelope1765000000000 implements MigrationInterface {
  name = 'OutboxJsonEnvelope1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ALTER COLUMN envelope TYPE json USING envelope::json');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ALTER COLUMN envelope TYPE jsonb USING envelope::jsonb');
  }
}
