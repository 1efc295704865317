import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A renewal that fails for a reason that retrying cannot change (a usage total past the safe integer bound, a
 * broken invariant) is parked: `renewal_parked_at` and a readable `renewal_parked_reason`. The scheduler and
 * sandbox clock advances skip a parked subscription until the park is lifted (docs/operations.md).
 */
export class RenewalPark1767400000000 implements MigrationInterface {
  name = 'RenewalPark1767400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE subscriptions ADD COLUMN renewal_parked_at timestamptz');
    await q.query('ALTER TABLE subscriptions ADD COLUMN renewal_parked_reason text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE subscriptions DROP COLUMN renewal_parked_reason');
    await q.query('ALTER TABLE subscriptions DROP COLUMN renewal_parked_at');
  }
}
