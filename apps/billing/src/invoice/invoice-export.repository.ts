import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runStatement, statement } from '@app/database';
import { Scope } from '../scope';

const INVOICES = statement(
  'invoices_export_batch',
  `SELECT i.id, i.created_at, i.subscription_id, i.status, i.currency, i.exponent, i.amount, i.period_start,
          i.period_end, i.paid_at, i.payment_attempt_count
     FROM invoices i
    WHERE i.merchant_code = $1 AND i.environment = $2 AND i.created_at >= $3 AND i.created_at < $4
      AND i.status <> 'new'
      AND ($5::uuid IS NULL OR (i.created_at, i.id) > (SELECT c.created_at, c.id FROM invoices c WHERE c.id = $5))
    ORDER BY i.created_at, i.id
    LIMIT $6`,
);

export interface InvoiceExportRow {
  id: string;
  created_at: Date;
  subscription_id: string;
  status: string;
  currency: string;
  exponent: number;
  amount: string;
  period_start: Date;
  period_end: Date;
  paid_at: Date | null;
  payment_attempt_count: number;
}

export interface InvoiceExportRange {
  from: Date;
  to: Date;
  /** The id of the last invoice of the batch before, if any. */
  after: string | null;
  limit: number;
}

/** The invoices CSV export's reads. */
@Injectable()
export class InvoiceExportRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Issued invoices of the range, oldest first, after the cursor. */
  batch(scope: Scope, range: InvoiceExportRange): Promise<InvoiceExportRow[]> {
    const values = [scope.merchantCode, scope.environment, range.from, range.to, range.after, range.limit];
    return runStatement<InvoiceExportRow & Record<string, unknown>>(this.db, INVOICES, values);
  }
}
