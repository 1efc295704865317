import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useWorkspace } from '../context';
import { formatAmount, formatDate } from '../format';
import { href } from '../route';
import { unwrap } from '../session';
import { Failure, Loading, Status } from '../ui';
import { ExportPanel } from './export-panel';
import { displayStatus } from './payment-status';

export { PaymentPage } from './payment';

const PAGE = 20;
const STATUSES = [
  'captured',
  'partially_refunded',
  'authorized',
  'declined',
  'pending_3ds',
  'pending_action',
  'failed',
  'cancelled',
  'refunded',
] as const;
type ListStatus = (typeof STATUSES)[number];
const isStatus = (value: string | undefined): value is ListStatus => STATUSES.some((s) => s === value);

/** The list's server-side filters, as the query string of GET /v1/payment takes them. */
interface Filters {
  search?: string;
  email?: string;
  last4?: string;
  status?: ListStatus;
  amountMin?: number;
  amountMax?: number;
  createdFrom?: string;
  createdTo?: string;
}

/** A decimal amount typed by a person, in minor units of a two-decimal currency; absent when empty or not a number. */
const minorUnits = (text: string): number | undefined => {
  const value = Number(text);
  return text.trim() && Number.isFinite(value) && value >= 0 ? Math.round(value * 100) : undefined;
};

/** A date input's day as the instant its day starts (UTC); `nextDay` for the end of a range that includes it. */
const dayStart = (day: string, nextDay = false): string | undefined => {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00Z`);
  if (nextDay) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
};

function filtersOf(form: FormData): Filters {
  const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
  return {
    search: text('q'),
    email: text('email'),
    last4: text('last4'),
    status: ((s) => (isStatus(s) ? s : undefined))(text('status')),
    amountMin: minorUnits(String(form.get('amountMin') ?? '')),
    amountMax: minorUnits(String(form.get('amountMax') ?? '')),
    createdFrom: dayStart(String(form.get('from') ?? '')),
    createdTo: dayStart(String(form.get('to') ?? ''), true),
  };
}

/** Payments, newest first, searched and filtered by the server over the whole list, a page at a time. */
export function PaymentsPage() {
  const { api, membership, environment } = useWorkspace();
  const [filters, setFilters] = useState<Filters>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const startingAfter = cursors[cursors.length - 1];
  const list = useQuery({
    queryKey: ['payments', membership.merchantCode, environment, filters, startingAfter],
    queryFn: () => unwrap(api.GET('/v1/payment', { params: { query: { ...filters, limit: PAGE, startingAfter } } })),
  });
  const onSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setFilters(filtersOf(new FormData(e.currentTarget)));
    setCursors([]);
  };
  const onClear = (e: FormEvent<HTMLFormElement>) => {
    e.currentTarget.reset();
    setFilters({});
    setCursors([]);
  };
  const rows = list.data ?? [];
  return (
    <section>
      <h1>Payments</h1>
      <form className="filters" onSubmit={onSearch} onReset={onClear} role="search" aria-label="Find payments">
        <label>
          Order or payment code <input name="q" type="search" placeholder="starts with…" />
        </label>
        <label>
          Customer email <input name="email" type="email" />
        </label>
        <label>
          Card last four <input name="last4" inputMode="numeric" pattern="[0-9]{4}" maxLength={4} size={5} />
        </label>
        <label>
          Status{' '}
          <select name="status" defaultValue="">
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          Amount from <input name="amountMin" inputMode="decimal" size={7} />
        </label>
        <label>
          Amount to <input name="amountMax" inputMode="decimal" size={7} />
        </label>
        <label>
          From date <input name="from" type="date" />
        </label>
        <label>
          To date <input name="to" type="date" />
        </label>
        <button type="submit" className="primary">
          Search
        </button>
        <button type="reset">Clear</button>
      </form>
      {list.isPending ? (
        <Loading what="payments" />
      ) : list.isError ? (
        <Failure error={list.error} />
      ) : rows.length === 0 ? (
        <p>No payments match.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Payments">
            <thead>
              <tr>
                <th>Order</th>
                <th>Amount</th>
                <th>Status</th>
                <th>Card</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <tr key={p.id}>
                  <td>
                    <a href={href('payments', p.id)}>{p.orderCode}</a>
                    <div className="sub">{p.paymentCode}</div>
                  </td>
                  <td>{formatAmount(p.amount)}</td>
                  <td>
                    <Status value={displayStatus(p)} />
                  </td>
                  <td>{p.card ? `${p.card.cardData.brand} ${p.card.cardData.cardNumber}` : p.paymentMethod}</td>
                  <td>{formatDate(p.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="pager">
        <button type="button" disabled={!cursors.length} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <button
          type="button"
          disabled={rows.length < PAGE}
          onClick={() => rows.length && setCursors([...cursors, rows[rows.length - 1].id])}
        >
          Older
        </button>
      </div>
      <ExportPanel />
    </section>
  );
}
