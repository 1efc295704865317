import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The web origins allowed to embed a merchant's card fields (the frames' `frame-ancestors`), set through the
 * admin API; docs/card-fields.md. Empty until the operator registers the merchant's shop.
 */
export class MerchantAllowedOrigins1768000000000 implements MigrationInterface {
  name = 'MerchantAllowedOrigins1768000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE merchants DROP COLUMN allowed_origins');
  }
}
