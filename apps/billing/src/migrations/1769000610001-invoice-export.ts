import { MigrationInterface, QueryRunner } from 'typeorm';

/** The invoices CSV export reads one merchant's invoices of a date range by (created_at, id). */
export class InvoiceExport1769000610001 implements MigrationInterface {
  name = 'InvoiceExport1769000610001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX invoices_export ON invoices (merchant_code, environment, created_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX invoices_export');
  }
}
