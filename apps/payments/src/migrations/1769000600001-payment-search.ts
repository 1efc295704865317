import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payments list searches the whole list (order or payment code by prefix, shopper email, card last four,
 * amount, status, date range) and pages by (created_at, id); a refund keeps its reason and who made it.
 */
export class PaymentSearch1769000600001 implements MigrationInterface {
  name = 'PaymentSearch1769000600001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_operations ADD COLUMN reason text, ADD COLUMN actor text');
    await q.query('CREATE INDEX payments_list ON payments (merchant_code, environment, created_at DESC, id DESC)');
    await q.query(
      'CREATE INDEX payments_order_code_prefix ON payments (merchant_code, environment, order_code text_pattern_ops)',
    );
    await q.query(
      'CREATE INDEX payments_payment_code_prefix ON payments (merchant_code, environment, payment_code text_pattern_ops)',
    );
    await q.query(
      "CREATE INDEX payments_shopper_email ON payments (merchant_code, environment, lower(shopper->>'email'))",
    );
    await q.query(
      "CREATE INDEX payments_card_last4 ON payments (merchant_code, environment, right(card->'cardData'->>'cardNumber', 4))",
    );
    await q.query(
      "CREATE INDEX payment_operations_refunds ON payment_operations (created_at, id) WHERE kind = 'refund'",
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX payment_operations_refunds');
    await q.query('DROP INDEX payments_card_last4');
    await q.query('DROP INDEX payments_shopper_email');
    await q.query('DROP INDEX payments_payment_code_prefix');
    await q.query('DROP INDEX payments_order_code_prefix');
    await q.query('DROP INDEX payments_list');
    await q.query('ALTER TABLE payment_operations DROP COLUMN reason, DROP COLUMN actor');
  }
}
