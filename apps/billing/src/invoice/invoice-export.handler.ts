import { MessagePattern } from '@nestjs/microservices';
import { BillingSubjects, CallerContext, ExportBatch, ExportBatchCommand } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { InvoiceExportRepository } from './invoice-export.repository';

/** One batch of the invoices CSV export: issued invoices of the range, oldest first, after the cursor. */
@CommandHandler()
export class InvoiceExportHandler {
  constructor(private readonly invoices: InvoiceExportRepository) {}

  @MessagePattern(BillingSubjects.exportInvoices)
  async batch(@Caller() ctx: CallerContext, @CommandBody() cmd: ExportBatchCommand): Promise<ExportBatch> {
    const rows = await this.invoices.batch(ctx, {
      from: new Date(cmd.createdFrom),
      to: new Date(cmd.createdTo),
      after: cmd.after?.id ?? null,
      limit: cmd.limit,
    });
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
