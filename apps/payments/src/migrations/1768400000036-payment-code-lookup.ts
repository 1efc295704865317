import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The keyless inquiry finds a payment by paymentCode and environment across merchants; the unique index leads
 * with merchant_code, so without this one that lookup would scan every payment.
 */
export class PaymentCodeLookup1768400000036 implements MigrationInterface {
  name = 'PaymentCodeLookup1768400000036';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX payments_payment_code_lookup ON payments (payment_code, environment)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX payments_payment_code_lookup');
  }
}
