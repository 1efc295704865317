import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A paymentCode names one payment in its environment, across merchants: the keyless inquiry answers it, so a
 * second merchant must not be able to take (and so shadow) a code a first merchant has. Codes two merchants
 * already share keep working with their keys: the payments of every merchant but the first to use the code (by
 * its oldest payment) are marked `code_shared`, stay out of the unique index, and are never answered keyless.
 */
export class PaymentCodePerEnvironment1769000200001 implements MigrationInterface {
  name = 'PaymentCodePerEnvironment1769000200001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payments ADD COLUMN code_shared boolean NOT NULL DEFAULT false');
    await q.query(`
      UPDATE payments p SET code_shared = true
      FROM (
        SELECT DISTINCT ON (environment, payment_code) environment, payment_code, merchant_code
        FROM payments ORDER BY environment, payment_code, created_at, id
      ) first
      WHERE p.environment = first.environment AND p.payment_code = first.payment_code
        AND p.merchant_code <> first.merchant_code`);
    await q.query(
      'CREATE UNIQUE INDEX payments_payment_code_environment ON payments (environment, payment_code) WHERE NOT code_shared',
    );
    // The unique index serves the keyless lookup now.
    await q.query('DROP INDEX IF EXISTS payments_payment_code_lookup');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX IF NOT EXISTS payments_payment_code_lookup ON payments (payment_code, environment)');
    await q.query('DROP INDEX IF EXISTS payments_payment_code_environment');
    await q.query('ALTER TABLE payments DROP COLUMN code_shared');
  }
}
