import { Injectable } from '@nestjs/common';
import { CallerContext, ExportBatch, ExportBatchCommand, ExportCell } from '@app/contracts';
import { actorView } from '../payment/payment.view';
import { ExportRepository, ExportRange, ExportRow as Row } from './export.repository';

/**
 * The CSV exports' batches: at most `limit` rows by keyset on (created_at, id), so the gateway streams a
 * range of any size one batch at a time and rows created meanwhile never shift it.
 */
@Injectable()
export class ExportService {
  constructor(private readonly rows: ExportRepository) {}

  async payments(ctx: CallerContext, cmd: ExportBatchCommand): Promise<ExportBatch> {
    const rows = await this.rows.payments(ctx, range(cmd));
    return batch(rows, cmd.limit, (r) => [
      r.id,
      iso(r.created_at),
      text(r.payment_code),
      text(r.order_code),
      text(r.status),
      text(r.payment_method),
      text(r.card_brand),
      text(r.card_last4),
      text(r.shopper_email),
      text(r.currency),
      Number(r.exponent),
      Number(r.amount_value),
      Number(r.amount_captured),
      Number(r.amount_refunded),
      text(r.connection_code),
      text(r.refusal_code),
    ]);
  }

  async refunds(ctx: CallerContext, cmd: ExportBatchCommand): Promise<ExportBatch> {
    const rows = await this.rows.refunds(ctx, range(cmd));
    return batch(rows, cmd.limit, (r) => {
      const actor = actorView(text(r.actor));
      return [
        r.id,
        iso(r.created_at),
        text(r.payment_id),
        text(r.payment_code),
        text(r.order_code),
        text(r.currency),
        Number(r.exponent),
        Number(r.amount_value),
        text(r.reason),
        text(r.reference),
        actor?.type ?? null,
        actor?.id ?? null,
      ];
    });
  }
}

const range = (cmd: ExportBatchCommand): ExportRange => ({
  from: new Date(cmd.createdFrom),
  to: new Date(cmd.createdTo),
  after: cmd.after?.id ?? null,
  limit: cmd.limit,
});
const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const iso = (d: Date): string => d.toISOString();

/** The rows as cells; `next` only when the batch is full (there may be more). */
export function batch(rows: Row[], limit: number, cells: (r: Row) => ExportCell[]): ExportBatch {
  const last = rows[rows.length - 1];
  return {
    rows: rows.map(cells),
    ...(rows.length === limit && last ? { next: { createdAt: iso(last.created_at), id: last.id } } : {}),
  };
}
