import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../typescript/src/generated/api';
import { DayBars, DayLine, LabelBars, type DayPoint } from '../charts';
import { useWorkspace } from '../context';
import { formatAmount, formatDate } from '../format';
import { href } from '../route';
import { unwrap } from '../session';
import { Failure, Loading } from '../ui';

type Money = { currency: string; exponent: number; value: number };

const percent = (rate: number): string => `${+(rate * 100).toFixed(1)}%`;

/** An axis label in major units: 1,250 → "12.5", 1,250,000 → "12.5k" (a currency with exponent 2). */
function compact(value: number, exponent: number): string {
  const major = value / 10 ** exponent;
  if (major >= 1_000_000) return `${+(major / 1_000_000).toFixed(1)}M`;
  if (major >= 1_000) return `${+(major / 1_000).toFixed(1)}k`;
  return `${+major.toFixed(major >= 10 ? 0 : 2)}`;
}

const valueIn = (amounts: readonly Money[], currency: string): number =>
  amounts.find((a) => a.currency === currency)?.value ?? 0;

/**
 * The landing page after sign-in: the merchant's payments (volume, approval rate, declines by reason) and what
 * dunning recovered, over a range of days (default: the last 30 on the environment's clock), counted by the
 * server (GET /v1/payment/stats, GET /v1/subscription/recovery).
 */
export function HomePage() {
  const { api, membership, environment } = useWorkspace();
  const [range, setRange] = useState<{ from?: string; to?: string }>({});
  const [chosen, setCurrency] = useState<string>();
  const scope = [membership.merchantCode, environment, range.from, range.to];
  const stats = useQuery({
    queryKey: ['payment-stats', ...scope],
    queryFn: () => unwrap(api.GET('/v1/payment/stats', { params: { query: range } })),
  });
  const recovery = useQuery({
    queryKey: ['recovery', ...scope],
    queryFn: () => unwrap(api.GET('/v1/subscription/recovery', { params: { query: range } })),
  });
  const from = range.from ?? stats.data?.from ?? '';
  const to = range.to ?? stats.data?.to ?? '';
  const currencies = [
    ...new Set([
      ...(stats.data?.totals.volume ?? []).map((v) => v.currency),
      ...(recovery.data?.recoveredRevenue ?? []).map((v) => v.currency),
    ]),
  ];
  const currency = chosen && currencies.includes(chosen) ? chosen : currencies[0];
  const exponent =
    [...(stats.data?.totals.volume ?? []), ...(recovery.data?.recoveredRevenue ?? [])].find(
      (v) => v.currency === currency,
    )?.exponent ?? 2;
  const money = (value: number) => formatAmount({ value, currency: currency ?? '', exponent });
  return (
    <section className="home">
      <h1>Home</h1>
      <form className="filters" aria-label="Date range" onSubmit={(e) => e.preventDefault()}>
        <label>
          From
          <input type="date" value={from} max={to} onChange={(e) => setRange({ from: e.target.value, to })} />
        </label>
        <label>
          To
          <input type="date" value={to} min={from} onChange={(e) => setRange({ from, to: e.target.value })} />
        </label>
        {currencies.length > 1 && (
          <label>
            Currency
            <select value={currency} onChange={(e) => setCurrency(e.target.value)}>
              {currencies.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
        )}
        <span className="sub">Days in UTC; {environment === 'sandbox' ? 'by the sandbox clock' : 'real time'}</span>
      </form>
      <h2>Payments</h2>
      {stats.isPending ? (
        <Loading what="payment figures" />
      ) : stats.isError ? (
        <Failure error={stats.error} />
      ) : (
        <>
          <ul className="kpis" aria-label="Payment totals">
            <li>
              <span className="sub">Volume</span>
              <strong>{currency ? money(valueIn(stats.data.totals.volume, currency)) : '—'}</strong>
            </li>
            <li>
              <span className="sub">Approval rate</span>
              <strong>{stats.data.totals.attempted ? percent(stats.data.totals.approvalRate) : '—'}</strong>
              <span className="sub">
                {stats.data.totals.approved} of {stats.data.totals.attempted} approved
              </span>
            </li>
            <li>
              <span className="sub">Declined</span>
              <strong>{stats.data.totals.declined}</strong>
              {stats.data.totals.failed > 0 && <span className="sub">{stats.data.totals.failed} failed</span>}
            </li>
          </ul>
          <div className="chart-grid">
            <figure>
              <h3>Volume{currency ? ` (${currency})` : ''}</h3>
              <DayBars
                label={`Approved payment volume by day, ${from} to ${to}`}
                points={stats.data.byDay.map((d) => ({
                  date: d.date,
                  value: currency ? valueIn(d.volume, currency) : 0,
                }))}
                format={(v) => compact(v, exponent)}
                full={money}
              />
            </figure>
            <figure>
              <h3>Approval rate</h3>
              <DayLine
                label={`Approval rate by day, ${from} to ${to}`}
                points={stats.data.byDay.map((d): DayPoint => ({
                  date: d.date,
                  value: d.attempted ? d.approvalRate : null,
                }))}
                top={1}
                format={percent}
              />
            </figure>
            <figure>
              <h3>Declines by reason</h3>
              {stats.data.declinesByReason.length === 0 ? (
                <p className="sub">No declines in this range.</p>
              ) : (
                <LabelBars
                  label="Declined payments by refusal reason"
                  rows={stats.data.declinesByReason.map((r) => ({
                    label: `${r.reasonCode} ${r.reason}`,
                    value: r.count,
                    text: String(r.count),
                  }))}
                />
              )}
            </figure>
          </div>
        </>
      )}
      <h2>Recovery</h2>
      {recovery.isPending ? (
        <Loading what="recovery figures" />
      ) : recovery.isError ? (
        <Failure error={recovery.error} />
      ) : (
        <Recovery report={recovery.data} currency={currency} exponent={exponent} money={money} reasons={stats.data} />
      )}
    </section>
  );
}

type RecoveryReport = components['schemas']['RecoveryReportView'];
type PaymentStats = components['schemas']['PaymentStatsView'];

function Recovery(props: {
  report: RecoveryReport;
  currency: string | undefined;
  exponent: number;
  money: (v: number) => string;
  reasons: PaymentStats | undefined;
}) {
  const { report, currency, exponent, money } = props;
  const reasonName = (code: string) =>
    code === 'failed'
      ? 'failed (no code)'
      : `${code} ${props.reasons?.declinesByReason.find((r) => r.reasonCode === code)?.reason ?? ''}`.trim();
  const rateRow = (label: string, r: { rate: number; recovered: number; entered: number }) => ({
    label,
    value: r.rate,
    text: `${percent(r.rate)} (${r.recovered} of ${r.entered})`,
  });
  return (
    <>
      <ul className="kpis" aria-label="Recovery totals">
        <li>
          <span className="sub">Recovered revenue</span>
          <strong>{currency ? money(valueIn(report.recoveredRevenue, currency)) : '—'}</strong>
          <span className="sub">{report.recoveredCount} invoice(s) paid after a failed charge</span>
        </li>
        <li>
          <span className="sub">Recovery rate</span>
          <strong>{report.overall.entered ? percent(report.overall.rate) : '—'}</strong>
          <span className="sub">
            {report.overall.recovered} of {report.overall.entered} in dunning; {report.overall.lost} lost,{' '}
            {report.overall.open} open
          </span>
        </li>
        <li>
          <span className="sub">In dunning now</span>
          <strong>{report.inDunning.length}</strong>
        </li>
      </ul>
      <div className="chart-grid">
        <figure>
          <h3>Recovered revenue{currency ? ` (${currency})` : ''}</h3>
          <DayBars
            label={`Recovered revenue by day, ${report.from} to ${report.to}`}
            points={report.recoveredByDay.map((d) => ({
              date: d.date,
              value: currency ? valueIn(d.amounts, currency) : 0,
            }))}
            format={(v) => compact(v, exponent)}
            full={money}
          />
        </figure>
        <figure>
          <h3>Recovery rate by refusal reason</h3>
          {report.byReason.length === 0 ? (
            <p className="sub">No invoice entered dunning in this range.</p>
          ) : (
            <LabelBars
              label="Recovery rate by the refusal reason that started dunning"
              rows={report.byReason.map((r) => rateRow(reasonName(r.reasonCode), r))}
              top={1}
            />
          )}
        </figure>
        <figure>
          <h3>Recovery rate by connection</h3>
          {report.byConnection.length === 0 ? (
            <p className="sub">No invoice entered dunning in this range.</p>
          ) : (
            <LabelBars
              label="Recovery rate by the connection that declined"
              rows={report.byConnection.map((r) => rateRow(r.connectionCode ?? 'not sent', r))}
              top={1}
            />
          )}
        </figure>
      </div>
      <h3>Invoices in dunning</h3>
      {report.inDunning.length === 0 ? (
        <p className="sub">No invoice is in dunning.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Invoices in dunning" className="stack-on-phone">
            <thead>
              <tr>
                <th>Customer</th>
                <th>Amount due</th>
                <th>Last decline</th>
                <th>Next step</th>
              </tr>
            </thead>
            <tbody>
              {report.inDunning.map((i) => (
                <tr key={i.invoiceId}>
                  <td data-label="Customer">
                    <a href={href('subscriptions', i.subscriptionId)}>{i.customerEmail}</a>
                  </td>
                  <td data-label="Amount due">{formatAmount(i.amountDue)}</td>
                  <td data-label="Last decline">
                    <span>
                      {i.lastRefusal
                        ? `${i.lastRefusal.reasonCode} ${i.lastRefusal.reason}`
                        : reasonName(i.startReason)}
                      <span className="sub"> · {i.paymentAttemptCount} charge(s)</span>
                    </span>
                  </td>
                  <td data-label="Next step">
                    {i.waitingFor === 'payment_method'
                      ? 'Waiting for a new card'
                      : `Retry ${formatDate(i.nextAttemptAt)}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
