import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runStatement, statement } from '@app/database';
import type { Scope } from '../payment/payment.repository';

/** One day (UTC), currency and outcome of a merchant's payments: how many, and their amounts. */
export interface DayRow {
  day: string;
  currency: string;
  exponent: number;
  outcome: 'approved' | 'declined' | 'failed';
  n: number;
  total: string;
}

export interface ReasonRow {
  reason_code: string;
  reason: string;
  n: number;
}

/**
 * Approved: authorized or captured when answered (refunded, voided or expired since count too); an abandoned
 * 3DS session or APM voucher, and a payment still pending, are no answer and count nowhere.
 */
const OUTCOME = `CASE
  WHEN status IN ('authorized', 'captured', 'refunded') THEN 'approved'
  WHEN status = 'cancelled' AND cancel_reason IN ('merchant', 'hold_expired') THEN 'approved'
  WHEN status = 'declined' THEN 'declined'
  WHEN status = 'failed' THEN 'failed'
END`;

const SCOPE = `merchant_code = $1 AND environment = $2 AND status <> 'reserved'
      AND created_at >= $3 AND created_at < $4`;

const DAYS = statement(
  'payment_stats_days',
  `SELECT * FROM (
     SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, exponent,
            ${OUTCOME} AS outcome, count(*)::int AS n, sum(amount_value)::text AS total
       FROM payments WHERE ${SCOPE}
      GROUP BY 1, 2, 3, 4) t
    WHERE outcome IS NOT NULL`,
);
const REASONS = statement(
  'payment_stats_declines',
  `SELECT coalesce(refusal_code->>'reasonCode', 'unknown') AS reason_code,
          coalesce(max(refusal_code->>'reason'), 'Unknown') AS reason, count(*)::int AS n
     FROM payments WHERE ${SCOPE} AND status = 'declined'
    GROUP BY 1 ORDER BY n DESC, 1`,
);

/** The payment figures' aggregates, computed in PostgreSQL (index payments_created). */
@Injectable()
export class PaymentStatsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The merchant's payments created in [start, end) by day, currency and outcome. */
  days(scope: Scope, start: Date, end: Date): Promise<DayRow[]> {
    return runStatement<DayRow & Record<string, unknown>>(this.db, DAYS, values(scope, start, end));
  }

  /** The merchant's declines created in [start, end) by reason, most frequent first. */
  declines(scope: Scope, start: Date, end: Date): Promise<ReasonRow[]> {
    return runStatement<ReasonRow & Record<string, unknown>>(this.db, REASONS, values(scope, start, end));
  }
}

const values = (scope: Scope, start: Date, end: Date): unknown[] => [scope.merchantCode, scope.environment, start, end];
