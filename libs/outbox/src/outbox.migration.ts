import { MigrationInterface, QueryRunner } from 'typeorm';

/** The outbox table; every service lists this migration first. */
export class CreateOutbox1763700000000 implements MigrationInterface {
  name = 'CreateOutbox1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox (
        id uuid PRIMARY KEY,
        type text NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        claimed_until timestamptz,
        published_at timestamptz,
        attempts int NOT NULL DEFAULT 0,
        last_error text
      )`);
    await q.query('CREATE INDEX outbox_unpublished ON outbox (created_at) WHERE published_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE outbox');
  }
}
