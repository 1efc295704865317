import { Injectable } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, reportRange } from '@app/clock';
import {
  CallerContext,
  CurrencyAmountView,
  PaymentCountsView,
  PaymentsSubjects,
  PaymentStatsView,
  ReportRange,
  ReportRangeQuery,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';

/** One day (UTC), currency and outcome of a merchant's payments: how many, and their amounts. */
interface DayRow {
  day: string;
  currency: string;
  exponent: number;
  outcome: 'approved' | 'declined' | 'failed';
  n: number;
  total: string;
}

interface ReasonRow {
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

const emptyCounts = (): PaymentCountsView => ({
  attempted: 0,
  approved: 0,
  declined: 0,
  failed: 0,
  approvalRate: 0,
  volume: [],
});

function addRow(c: PaymentCountsView, r: DayRow): void {
  c.attempted += r.n;
  c[r.outcome] += r.n;
  c.approvalRate = c.attempted ? Math.round((c.approved / c.attempted) * 10_000) / 10_000 : 0;
  if (r.outcome !== 'approved') return;
  const v: CurrencyAmountView | undefined = c.volume.find((x) => x.currency === r.currency);
  const value = Number(BigInt(v?.value ?? 0) + BigInt(r.total));
  if (!Number.isSafeInteger(value)) throw new RangeError('Payment volume past the safe integer bound');
  if (v) v.value = value;
  else
    c.volume = [...c.volume, { currency: r.currency, exponent: r.exponent, value }].sort((a, b) =>
      a.currency.localeCompare(b.currency),
    );
}

/** The figures from the aggregates (pure): every day of the range, the totals, the declines by reason. */
export function paymentStats(
  range: ReportRange,
  days: readonly DayRow[],
  reasons: readonly ReasonRow[],
): PaymentStatsView {
  const totals = emptyCounts();
  const byDay = new Map(range.days.map((date) => [date, { date, ...emptyCounts() }]));
  for (const r of days) {
    addRow(totals, r);
    const day = byDay.get(r.day);
    if (day) addRow(day, r);
  }
  return {
    from: range.from,
    to: range.to,
    totals,
    byDay: [...byDay.values()],
    declinesByReason: reasons.map((r) => ({ reasonCode: r.reason_code, reason: r.reason, count: r.n })),
  };
}

/**
 * The merchant's payment figures over a range of days on its environment's clock, aggregated in PostgreSQL
 * (index payments_created): volume, approval rate and declines by reason, by day.
 */
@Injectable()
export class PaymentStatsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async stats(ctx: CallerContext, query: ReportRangeQuery): Promise<PaymentStatsView> {
    const range = reportRange(query, this.clock.now(ctx));
    const params = [ctx.merchantCode, ctx.environment, range.start, range.end];
    const scope = `merchant_code = $1 AND environment = $2 AND status <> 'reserved'
      AND created_at >= $3 AND created_at < $4`;
    const [days, reasons] = await Promise.all([
      this.db.query<DayRow[]>(
        `SELECT * FROM (
           SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, exponent,
                  ${OUTCOME} AS outcome, count(*)::int AS n, sum(amount_value)::text AS total
             FROM payments WHERE ${scope}
            GROUP BY 1, 2, 3, 4) t
          WHERE outcome IS NOT NULL`,
        params,
      ),
      this.db.query<ReasonRow[]>(
        `SELECT coalesce(refusal_code->>'reasonCode', 'unknown') AS reason_code,
                coalesce(max(refusal_code->>'reason'), 'Unknown') AS reason, count(*)::int AS n
           FROM payments WHERE ${scope} AND status = 'declined'
          GROUP BY 1 ORDER BY n DESC, 1`,
        params,
      ),
    ]);
    return paymentStats(range, days, reasons);
  }
}

@CommandHandler()
export class PaymentStatsHandler {
  constructor(private readonly service: PaymentStatsService) {}

  @MessagePattern(PaymentsSubjects.stats)
  stats(@Caller() ctx: CallerContext, @CommandBody() query: ReportRangeQuery): Promise<PaymentStatsView> {
    return this.service.stats(ctx, query);
  }
}
