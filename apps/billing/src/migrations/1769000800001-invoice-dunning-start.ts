import { MigrationInterface, QueryRunner } from 'typeorm';

/** Invoices recorded before: those whose first charge was declined or failed entered dunning then. */
export const BACKFILL_DUNNING_START = `
  UPDATE invoices
     SET dunning_started_at = (attempts->0->>'at')::timestamptz,
         dunning_reason = coalesce(attempts->0->'refusalCode'->>'reasonCode', 'failed'),
         dunning_connection = attempts->0->>'connectionCode'
   WHERE dunning_started_at IS NULL AND jsonb_array_length(attempts) > 0
     AND attempts->0->>'status' IN ('declined', 'failed')`;

/**
 * What the merchant's recovery figures count (docs/api.md, Recovered revenue): on an invoice whose renewal was
 * declined, when its dunning run started, the refusal reason that started it (`failed`: a processing failure)
 * and the connection that declined. NULL: the invoice never entered dunning. Indexed for the report's two
 * ranges (runs started in a range; recovered invoices paid in a range) and for the past-due subscriptions.
 * Filled here from the invoices' recorded attempts (an invoice whose first charge was declined or failed).
 */
export class InvoiceDunningStart1769000800001 implements MigrationInterface {
  name = 'InvoiceDunningStart1769000800001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE invoices ADD COLUMN dunning_started_at timestamptz, ADD COLUMN dunning_reason text, ' +
        'ADD COLUMN dunning_connection text',
    );
    await q.query(BACKFILL_DUNNING_START);
    await q.query(`
      CREATE INDEX invoices_dunning_started ON invoices (merchant_code, environment, dunning_started_at)
      WHERE dunning_started_at IS NOT NULL`);
    await q.query(`
      CREATE INDEX invoices_recovered_paid ON invoices (merchant_code, environment, paid_at)
      WHERE dunning_started_at IS NOT NULL AND status = 'paid'`);
    await q.query(`
      CREATE INDEX subscriptions_past_due ON subscriptions (merchant_code, environment, next_billing_date)
      WHERE status = 'past_due'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX subscriptions_past_due');
    await q.query('DROP INDEX invoices_recovered_paid');
    await q.query('DROP INDEX invoices_dunning_started');
    await q.query(
      'ALTER TABLE invoices DROP COLUMN dunning_started_at, DROP COLUMN dunning_reason, DROP COLUMN dunning_connection',
    );
  }
}
