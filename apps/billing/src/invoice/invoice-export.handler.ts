import { MessagePattern } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BillingSubjects, CallerContext, ExportBatch, ExportBatchCommand } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';

const INVOICES = `
  SELECT i.id, i.created_at, i.subscription_id, i.status, i.currency, i.exponent, i.amount, i.period_start,
         i.period_end, i.paid_at, i.payment_attempt_count
    FROM invoices i
   WHERE i.merchant_code = $1 AND i.environment = $2 AND i.created_at >= $3 AND i.created_at < $4
     AND i.status <> 'new'
     AND ($5::uuid IS NULL OR (i.created_at, i.id) > (SELECT c.created_at, c.id FROM invoices c WHERE c.id = $5))
   ORDER BY i.created_at, i.id
   LIMIT $6`;

interface InvoiceRow {
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

/** One batch of the invoices CSV export: issued invoices of the range, oldest first, after the cursor. */
@CommandHandler()
export class InvoiceExportHandler {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @MessagePattern(BillingSubjects.exportInvoices)
  async batch(@Caller() ctx: CallerContext, @CommandBody() cmd: ExportBatchCommand): Promise<ExportBatch> {
    const rows: InvoiceRow[] = await this.db.query(INVOICES, [
      ctx.merchantCode,
      ctx.environment,
      new Date(cmd.createdFrom),
      new Date(cmd.createdTo),
      cmd.after?.id ?? null,
      cmd.limit,
    ]);
    const last = rows[rows.length - 1];
    return {
      rows: rows.map((r) => [
        r.id,
        r.created_at.toISOString(),
        r.subscription_id,
        r.status,
        r.currency,
        Number(r.exponent),
        Number(r.amount),
        r.period_start.toISOString(),
        r.period_end.toISOString(),
        r.paid_at ? r.paid_at.toISOString() : null,
        Number(r.payment_attempt_count),
      ]),
      ...(rows.length === cmd.limit && last ? { next: { createdAt: last.created_at.toISOString(), id: last.id } } : {}),
    };
  }
}
