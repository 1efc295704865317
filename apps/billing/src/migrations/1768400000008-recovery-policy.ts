import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchants' recovery policies, every version kept (a dunning run follows the version it started with), and
 * each subscription's dunning state: the version of its run, the scheduled renewal it counts from, the last
 * refusal and connection, and what it waits for (docs/api.md, Recovery policy). NULL: not in dunning.
 */
export class RecoveryPolicy1768400000008 implements MigrationInterface {
  name = 'RecoveryPolicy1768400000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE recovery_policies (
        merchant_code text NOT NULL,
        environment text NOT NULL,
        version int NOT NULL CHECK (version > 0),
        rules jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (merchant_code, environment, version)
      )`);
    await q.query('ALTER TABLE subscriptions ADD COLUMN dunning jsonb');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE subscriptions DROP COLUMN dunning');
    await q.query('DROP TABLE recovery_policies');
  }
}
