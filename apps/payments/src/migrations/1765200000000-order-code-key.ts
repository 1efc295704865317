import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The live order-code index becomes an index on one key, `merchant/environment/orderCode` (a merchant code
 * has no `/`, the environment is a word), and the purchase's order check asks for exactly that key. No other
 * index can serve the check, so the plan does not depend on table statistics: before, on a table that had not
 * been analyzed yet, the planner could read it through any index that starts with (merchant_code,
 * environment) and filter every payment of the merchant, slower with each row.
 */
export class OrderCodeKey1765200000000 implements MigrationInterface {
  name = 'OrderCodeKey1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX payments_order_code_live');
    await q.query(`
      CREATE UNIQUE INDEX payments_order_code_live ON payments ((merchant_code || '/' || environment || '/' || order_code))
      WHERE status NOT IN ('declined', 'failed', 'cancelled')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX payments_order_code_live');
    await q.query(`
      CREATE UNIQUE INDEX payments_order_code_live ON payments (merchant_code, environment, order_code)
      WHERE status NOT IN ('declined', 'failed', 'cancelled')`);
  }
}
