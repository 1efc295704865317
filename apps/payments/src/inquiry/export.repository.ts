import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runStatement, statement } from '@app/database';
import type { Scope } from '../payment/payment.repository';

const PAYMENTS = statement(
  'payments_export_batch',
  `SELECT p.id, p.created_at, p.payment_code, p.order_code, p.status, p.payment_method,
          p.card->'cardData'->>'brand' AS card_brand, right(p.card->'cardData'->>'cardNumber', 4) AS card_last4,
          p.shopper->>'email' AS shopper_email, p.currency, p.exponent, p.amount_value, p.amount_captured,
          p.amount_refunded, p.connection_code, p.refusal_code->>'reasonCode' AS refusal_code
     FROM payments p
    WHERE p.merchant_code = $1 AND p.environment = $2 AND p.created_at >= $3 AND p.created_at < $4
      AND p.status <> 'reserved'
      AND ($5::uuid IS NULL OR (p.created_at, p.id) > (SELECT c.created_at, c.id FROM payments c WHERE c.id = $5))
    ORDER BY p.created_at, p.id
    LIMIT $6`,
);

const REFUNDS = statement(
  'refunds_export_batch',
  `SELECT o.id, o.created_at, p.id AS payment_id, p.payment_code, p.order_code, p.currency, p.exponent,
          o.amount_value, o.reason, o.reference, o.actor
     FROM payment_operations o JOIN payments p ON p.id = o.payment_id
    WHERE o.kind = 'refund' AND p.merchant_code = $1 AND p.environment = $2 AND o.created_at >= $3
      AND o.created_at < $4
      AND ($5::uuid IS NULL OR (o.created_at, o.id) > (SELECT c.created_at, c.id FROM payment_operations c WHERE c.id = $5))
    ORDER BY o.created_at, o.id
    LIMIT $6`,
);

export type ExportRow = Record<string, unknown> & { id: string; created_at: Date };

/** A keyset page of an export: created in [from, to), after the row `after` (by created_at, id). */
export interface ExportRange {
  from: Date;
  to: Date;
  after: string | null;
  limit: number;
}

/** The CSV exports' reads: at most `limit` rows by keyset on (created_at, id). */
@Injectable()
export class ExportRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  payments(scope: Scope, range: ExportRange): Promise<ExportRow[]> {
    return runStatement<ExportRow>(this.db, PAYMENTS, values(scope, range));
  }

  refunds(scope: Scope, range: ExportRange): Promise<ExportRow[]> {
    return runStatement<ExportRow>(this.db, REFUNDS, values(scope, range));
  }
}

const values = (scope: Scope, r: ExportRange): unknown[] => [
  scope.merchantCode,
  scope.environment,
  r.from,
  r.to,
  r.after,
  r.limit,
];
