import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallerContext, ExportBatch, ExportBatchCommand, ExportCell } from '@app/contracts';
import { actorView } from '../payment/payment.view';

const PAYMENTS = `
  SELECT p.id, p.created_at, p.payment_code, p.order_code, p.status, p.payment_method,
         p.card->'cardData'->>'brand' AS card_brand, right(p.card->'cardData'->>'cardNumber', 4) AS card_last4,
         p.shopper->>'email' AS shopper_email, p.currency, p.exponent, p.amount_value, p.amount_captured,
         p.amount_refunded, p.connection_code, p.refusal_code->>'reasonCode' AS refusal_code
    FROM payments p
   WHERE p.merchant_code = $1 AND p.environment = $2 AND p.created_at >= $3 AND p.created_at < $4
     AND p.status <> 'reserved'
     AND ($5::uuid IS NULL OR (p.created_at, p.id) > (SELECT c.created_at, c.id FROM payments c WHERE c.id = $5))
   ORDER BY p.created_at, p.id
   LIMIT $6`;

const REFUNDS = `
  SELECT o.id, o.created_at, p.id AS payment_id, p.payment_code, p.order_code, p.currency, p.exponent,
         o.amount_value, o.reason, o.reference, o.actor
    FROM payment_operations o JOIN payments p ON p.id = o.payment_id
   WHERE o.kind = 'refund' AND p.merchant_code = $1 AND p.environment = $2 AND o.created_at >= $3
     AND o.created_at < $4
     AND ($5::uuid IS NULL OR (o.created_at, o.id) > (SELECT c.created_at, c.id FROM payment_operations c WHERE c.id = $5))
   ORDER BY o.created_at, o.id
   LIMIT $6`;

type Row = Record<string, unknown> & { id: string; created_at: Date };

/**
 * The CSV exports' batches: at most `limit` rows by keyset on (created_at, id), so the gateway streams a
 * range of any size one batch at a time and rows created meanwhile never shift it.
 */
@Injectable()
export class ExportService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async payments(ctx: CallerContext, cmd: ExportBatchCommand): Promise<ExportBatch> {
    const rows: Row[] = await this.db.query(PAYMENTS, this.params(ctx, cmd));
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
    const rows: Row[] = await this.db.query(REFUNDS, this.params(ctx, cmd));
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

  private params(ctx: CallerContext, cmd: ExportBatchCommand): unknown[] {
    return [
      ctx.merchantCode,
      ctx.environment,
      new Date(cmd.createdFrom),
      new Date(cmd.createdTo),
      cmd.after?.id ?? null,
      cmd.limit,
    ];
  }
}

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
