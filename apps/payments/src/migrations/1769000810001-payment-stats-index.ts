import { MigrationInterface, QueryRunner } from 'typeorm';

/** The merchant's payment figures (GET /v1/payment/stats) read one merchant and environment's days by this index. */
export class PaymentStatsIndex1769000810001 implements MigrationInterface {
  name = 'PaymentStatsIndex1769000810001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX payments_created ON payments (merchant_code, environment, created_at)
      WHERE status <> 'reserved'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX payments_created');
  }
}
