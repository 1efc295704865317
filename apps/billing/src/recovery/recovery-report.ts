/**
 * The merchant's recovery figures from the repository's aggregates (pure): rates by start reason, by
 * connection and overall, every day of the range, and the invoices in dunning with their next step.
 */
import type {
  CurrencyAmountView,
  InvoiceInDunningView,
  RecoveredDayView,
  RecoveryRateView,
  RecoveryReportView,
  ReportRange,
} from '@app/contracts';
import type { CohortRow, InDunningRow, RecoveredRow } from './recovery-report.repository';

const emptyRate = (): RecoveryRateView => ({ entered: 0, recovered: 0, lost: 0, open: 0, rate: 0 });

function add(rate: RecoveryRateView, row: CohortRow): void {
  rate.entered += row.n;
  if (row.status === 'paid') rate.recovered += row.n;
  else if (row.status === 'open') rate.open += row.n;
  else rate.lost += row.n;
  rate.rate = rate.entered ? Math.round((rate.recovered / rate.entered) * 10_000) / 10_000 : 0;
}

/** Rates grouped by `key`, most runs first (ties by key). */
function grouped<K extends string | null>(
  rows: readonly CohortRow[],
  key: (r: CohortRow) => K,
): Map<K, RecoveryRateView> {
  const groups = new Map<K, RecoveryRateView>();
  for (const row of rows) {
    const k = key(row);
    const rate = groups.get(k) ?? emptyRate();
    add(rate, row);
    groups.set(k, rate);
  }
  return new Map([...groups].sort(([ka, a], [kb, b]) => b.entered - a.entered || String(ka).localeCompare(String(kb))));
}

const safeNumber = (total: string): number => {
  const n = Number(total);
  if (!Number.isSafeInteger(n)) throw new RangeError(`Recovered total ${total} is past the safe integer bound`);
  return n;
};

function byCurrency(rows: readonly RecoveredRow[]): CurrencyAmountView[] {
  const sums = new Map<string, CurrencyAmountView>();
  for (const r of rows) {
    const sum = sums.get(r.currency) ?? { currency: r.currency, exponent: r.exponent, value: 0 };
    sum.value = safeNumber(String(BigInt(sum.value) + BigInt(r.total)));
    sums.set(r.currency, sum);
  }
  return [...sums.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

function inDunningView(r: InDunningRow): InvoiceInDunningView {
  const waitingFor = r.dunning?.waitingFor ?? 'scheduled_retry';
  return {
    invoiceId: r.id,
    subscriptionId: r.subscription_id,
    customerEmail: r.customer_email,
    amountDue: { currency: r.currency, exponent: r.exponent, value: safeNumber(r.amount) },
    dunningStartedAt: r.started_at.toISOString(),
    startReason: r.reason,
    lastRefusal: r.dunning?.lastRefusal ?? null,
    paymentAttemptCount: r.payment_attempt_count,
    waitingFor,
    nextAttemptAt: waitingFor === 'scheduled_retry' && r.next_billing_date ? r.next_billing_date.toISOString() : null,
  };
}

export function recoveryReport(
  range: ReportRange,
  data: { cohort: readonly CohortRow[]; recovered: readonly RecoveredRow[]; inDunning: readonly InDunningRow[] },
): RecoveryReportView {
  const overall = emptyRate();
  for (const row of data.cohort) add(overall, row);
  const days = new Map<string, RecoveredRow[]>();
  for (const r of data.recovered) days.set(r.day, [...(days.get(r.day) ?? []), r]);
  const recoveredByDay: RecoveredDayView[] = range.days.map((date) => {
    const rows = days.get(date) ?? [];
    return { date, count: rows.reduce((n, r) => n + r.n, 0), amounts: byCurrency(rows) };
  });
  return {
    from: range.from,
    to: range.to,
    recoveredRevenue: byCurrency(data.recovered),
    recoveredCount: data.recovered.reduce((n, r) => n + r.n, 0),
    overall,
    byReason: [...grouped(data.cohort, (r) => r.reason)].map(([reasonCode, rate]) => ({ reasonCode, ...rate })),
    byConnection: [...grouped(data.cohort, (r) => r.connection)].map(([connectionCode, rate]) => ({
      connectionCode,
      ...rate,
    })),
    recoveredByDay,
    inDunning: data.inDunning.map(inDunningView),
  };
}
