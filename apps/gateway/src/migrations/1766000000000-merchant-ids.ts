import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each merchant account's integer `merchantId`, the id plans and subscriptions report. A
 * sequence numbers the existing merchants (in no particular order) and every new one at creation.
 */
export class MerchantIds1766000000000 implements MigrationInterface {
  name = 'MerchantIds1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE SEQUENCE merchant_ids AS bigint');
    await q.query(
      `ALTER TABLE merchants ADD COLUMN merchant_id bigint NOT NULL DEFAULT nextval('merchant_ids')
       CONSTRAINT merchants_merchant_id UNIQUE`,
    );
    await q.query('ALTER SEQUENCE merchant_ids OWNED BY merchants.merchant_id');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE merchants DROP COLUMN merchant_id');
  }
}
