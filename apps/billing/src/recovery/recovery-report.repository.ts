import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ReportRange } from '@app/contracts';
import { runStatement, statement } from '@app/database';
import type { DunningState } from './recovery-policy';
import type { Scope } from '../scope';

/** Invoices that entered dunning in the range, counted by the run's start reason, connection and status. */
export interface CohortRow {
  reason: string;
  connection: string | null;
  status: string;
  n: number;
}

/** Recovered invoices paid on one day (UTC), in one currency. */
export interface RecoveredRow {
  day: string;
  currency: string;
  exponent: number;
  n: number;
  total: string;
}

export interface InDunningRow {
  id: string;
  subscription_id: string;
  customer_email: string;
  amount: string;
  currency: string;
  exponent: number;
  started_at: Date;
  reason: string;
  payment_attempt_count: number;
  dunning: DunningState | null;
  next_billing_date: Date | null;
}

/** At most this many invoices in dunning are listed (next attempt first). */
export const IN_DUNNING_LIMIT = 100;

const COHORT = statement(
  'recovery_report_cohort',
  `SELECT dunning_reason AS reason, dunning_connection AS connection, status, count(*)::int AS n
     FROM invoices
    WHERE merchant_code = $1 AND environment = $2 AND dunning_started_at IS NOT NULL
      AND dunning_started_at >= $3 AND dunning_started_at < $4
    GROUP BY 1, 2, 3`,
);
const RECOVERED_BY_DAY = statement(
  'recovery_report_recovered_by_day',
  `SELECT to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, exponent,
          count(*)::int AS n, sum(amount)::text AS total
     FROM invoices
    WHERE merchant_code = $1 AND environment = $2 AND dunning_started_at IS NOT NULL AND status = 'paid'
      AND paid_at >= $3 AND paid_at < $4
    GROUP BY 1, 2, 3
    ORDER BY 1, 2`,
);
const IN_DUNNING = statement(
  'recovery_report_in_dunning',
  `SELECT i.id, i.subscription_id, s.customer_email, i.amount::text AS amount, i.currency, i.exponent,
          coalesce(i.dunning_started_at, i.created_at) AS started_at,
          coalesce(i.dunning_reason, s.dunning->>'startReason', 'unknown') AS reason,
          i.payment_attempt_count, s.dunning, s.next_billing_date
     FROM subscriptions s
     JOIN invoices i ON i.subscription_id = s.id AND i.status = 'open'
    WHERE s.merchant_code = $1 AND s.environment = $2 AND s.status = 'past_due'
    ORDER BY s.next_billing_date ASC NULLS LAST, i.id
    LIMIT ${IN_DUNNING_LIMIT}`,
);

/** A row type as runStatement answers it. */
type Row<T> = T & Record<string, unknown>;

/**
 * The merchant's recovery figures, aggregated in PostgreSQL over the invoices' dunning columns (migration
 * 1769000800001 indexes each range read): no invoice row leaves the database but the ones in dunning now.
 */
@Injectable()
export class RecoveryReportRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  cohort(scope: Scope, range: ReportRange): Promise<CohortRow[]> {
    return runStatement<Row<CohortRow>>(this.db, COHORT, [
      scope.merchantCode,
      scope.environment,
      range.start,
      range.end,
    ]);
  }

  recoveredByDay(scope: Scope, range: ReportRange): Promise<RecoveredRow[]> {
    const values = [scope.merchantCode, scope.environment, range.start, range.end];
    return runStatement<Row<RecoveredRow>>(this.db, RECOVERED_BY_DAY, values);
  }

  inDunning(scope: Scope): Promise<InDunningRow[]> {
    return runStatement<Row<InDunningRow>>(this.db, IN_DUNNING, [scope.merchantCode, scope.environment]);
  }
}
