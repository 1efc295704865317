import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The renewal scheduler's lease. A worker claims a due subscription (FOR UPDATE SKIP LOCKED) and sets
 * `renewal_lease_until` in a short transaction, calls payments with no transaction open, and clears it when
 * it records the outcome. Other workers and replicas skip a leased row; a worker that died leaves a lease
 * that runs out, and whoever claims the row next repeats the same payments call (same Idempotency-Key), which
 * payments answers with the first charge's result.
 */
export class RenewalLease1766300000000 implements MigrationInterface {
  name = 'RenewalLease1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE subscriptions ADD COLUMN renewal_lease_until timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE subscriptions DROP COLUMN renewal_lease_until');
  }
}
