import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each try keeps the start of the receiver's answer (at most 1 KiB), shown in the delivery log. */
export class AttemptAnswer1768400000002 implements MigrationInterface {
  name = 'AttemptAnswer1768400000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_attempts ADD COLUMN response_excerpt text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_attempts DROP COLUMN response_excerpt');
  }
}
