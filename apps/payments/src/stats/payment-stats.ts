import { Injectable } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
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
import { DayRow, PaymentStatsRepository, ReasonRow } from './payment-stats.repository';

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
    private readonly aggregates: PaymentStatsRepository,
    private readonly clock: Clock,
  ) {}

  async stats(ctx: CallerContext, query: ReportRangeQuery): Promise<PaymentStatsView> {
    const range = reportRange(query, this.clock.now(ctx));
    const [days, reasons] = await Promise.all([
      this.aggregates.days(ctx, range.start, range.end),
      this.aggregates.declines(ctx, range.start, range.end),
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
