import { MigrationInterface, QueryRunner } from 'typeorm';

/** A payment keeps the card's 3DS authentication result (flow, ECI, version) the acquirer answered with. */
export class PaymentThreeDSecure1769000500001 implements MigrationInterface {
  name = 'PaymentThreeDSecure1769000500001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payments ADD COLUMN three_d_secure jsonb');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payments DROP COLUMN three_d_secure');
  }
}
