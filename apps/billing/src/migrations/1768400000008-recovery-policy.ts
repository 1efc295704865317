import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchants' recovery policies, every version kept (a dunning run follows the version it started with), and
 * each subscription's dunning state: the version of its run, the scheduled renewal it counts from, the last
 * refusal and connection, and what it waits for (docs/api.md, Recovery policy). NULL: not in dunning. And the
 * account updater's marks: the renewal whose card was checked, and when the updater said the account closed.
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
    await q.query(
      'ALTER TABLE subscriptions ADD COLUMN dunning jsonb, ADD COLUMN card_checked_for timestamptz, ' +
        'ADD COLUMN card_closed_at timestamptz',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE subscriptions DROP COLUMN dunning, DROP COLUMN card_checked_for, DROP COLUMN card_closed_at',
    );
    await q.query('DROP TABLE recovery_policies');
  }
}
