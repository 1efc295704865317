import { DataSource } from 'typeorm';
import { CODES_TAKEN, orderKey } from '../../apps/payments/src/payment/payment.repository';
import { TestStack } from '../support/stack';

/**
 * Every purchase asks whether its order code is held by a live payment. The answer must come from the live
 * order-code index whatever PostgreSQL knows about the table: a young table has no statistics yet (autovacuum
 * analyzes it later, or never where it is off), and a plan that filters every payment of the merchant gets
 * slower with each row.
 */
describe('the order-code check of a purchase', () => {
  let stack: TestStack;
  let db: DataSource;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['payments'], gateway: false });
    db = stack.services.get('payments')![0].get(DataSource);
  });
  afterAll(() => stack.stop());

  const plan = async (mode: 'force_generic_plan' | 'force_custom_plan'): Promise<string> => {
    const runner = db.createQueryRunner();
    try {
      await runner.query(`PREPARE order_check_plan AS ${CODES_TAKEN.text}`);
      await runner.query(`SET plan_cache_mode = ${mode}`);
      const scope = { merchantCode: 'planmerchant', environment: 'sandbox' as const };
      const rows: Array<{ 'QUERY PLAN': string }> = await runner.query(
        `EXPLAIN EXECUTE order_check_plan('planmerchant', 'sandbox', '${orderKey(scope, 'order-77')}', NULL)`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await runner.query('DEALLOCATE ALL').catch(() => undefined);
      await runner.query('RESET plan_cache_mode').catch(() => undefined);
      await runner.release();
    }
  };

  it('reads the live order-code index on a table of one merchant that was never analyzed', async () => {
    await db.query(`
      INSERT INTO payments (id, merchant_code, environment, payment_code, order_code, status, intent, payment_method,
        currency, exponent, amount_value, amount_captured, amount_refunded, metadata, attempts, created_at, updated_at,
        connection_code, connection_name, acquirer)
      SELECT gen_random_uuid(), 'planmerchant', 'sandbox', 'PAY-PLAN' || g, 'order-' || g, 'captured', 'purchase',
        'card', 'USD', 2, 1999, 1999, 0, '{}', '[]', now(), now(), 'default', 'Sandbox', 'sandbox'
      FROM generate_series(1, 20000) g`);
    const [{ reltuples }] = await db.query("SELECT reltuples FROM pg_class WHERE relname = 'payments'");
    expect(Number(reltuples)).toBeLessThan(1); // no statistics: never vacuumed or analyzed

    for (const mode of ['force_generic_plan', 'force_custom_plan'] as const) {
      const text = await plan(mode);
      const orderCheck = text.split('InitPlan 2')[0];
      expect(orderCheck).toContain('payments_order_code_live');
      expect(orderCheck).not.toMatch(/Filter: .*order_code/);
    }
  });
});
