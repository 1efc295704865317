import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useCan, useWorkspace } from '../context';
import { formatAmount, formatDate, newIdempotencyKey } from '../format';
import { href } from '../route';
import { unwrap } from '../session';
import { ConfirmButton, Failure, Loading, Status } from '../ui';

const PAGE = 20;
const STATUSES = [
  'captured',
  'authorized',
  'declined',
  'pending_3ds',
  'pending_action',
  'failed',
  'cancelled',
  'refunded',
];

/**
 * Payments, newest first, a page at a time. The API filters by order code; a payment code is looked up with
 * the inquiry route; status and date narrow the page shown (the list route has no such filters).
 */
export function PaymentsPage() {
  const { api, membership, environment } = useWorkspace();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const startingAfter = cursors[cursors.length - 1];
  const list = useQuery({
    queryKey: ['payments', membership.merchantCode, environment, search, startingAfter],
    queryFn: async () => {
      if (search) {
        const byOrder = await unwrap(api.GET('/v1/payment', { params: { query: { orderCode: search, limit: PAGE } } }));
        if (byOrder.length) return byOrder;
        const byCode = await api.GET('/v1/payment/inquiry/{reference}', { params: { path: { reference: search } } });
        return byCode.data ? [byCode.data as (typeof byOrder)[number]] : [];
      }
      return unwrap(api.GET('/v1/payment', { params: { query: { limit: PAGE, startingAfter } } }));
    },
  });
  const onSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSearch(String(new FormData(e.currentTarget).get('q') ?? '').trim());
    setCursors([]);
  };
  const rows = (list.data ?? []).filter(
    (p) => (!status || p.status === status) && (!from || p.createdAt.slice(0, 10) >= from),
  );
  return (
    <section>
      <h1>Payments</h1>
      <form className="filters" onSubmit={onSearch} role="search">
        <label>
          Order or payment code <input name="q" type="search" defaultValue={search} />
        </label>
        <button type="submit">Search</button>
        <label>
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          From date <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
      </form>
      {list.isPending ? (
        <Loading what="payments" />
      ) : list.isError ? (
        <Failure error={list.error} />
      ) : rows.length === 0 ? (
        <p>No payments.</p>
      ) : (
        <div className="table-wrap">
          <table>
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
                    <Status value={p.status} />
                  </td>
                  <td>{p.card ? `${p.card.cardData.brand} ${p.card.cardData.cardNumber}` : p.paymentMethod}</td>
                  <td>{formatDate(p.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!search && (
        <div className="pager">
          <button type="button" disabled={!cursors.length} onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer
          </button>
          <button
            type="button"
            disabled={(list.data?.length ?? 0) < PAGE}
            onClick={() => list.data && setCursors([...cursors, list.data[list.data.length - 1].id])}
          >
            Older
          </button>
        </div>
      )}
    </section>
  );
}

export function PaymentPage({ id }: { id: string }) {
  const { api, membership, environment } = useWorkspace();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['payment', membership.merchantCode, environment, id];
  const payment = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/v1/payment/{id}', { params: { path: { id } } })),
  });
  // No route lists events by payment: read those since the payment was made and keep the payment's.
  const createdAt = payment.data?.createdAt;
  const timeline = useQuery({
    queryKey: [...key, 'events'],
    enabled: Boolean(createdAt),
    queryFn: async () => {
      const events = await unwrap(api.GET('/v1/events', { params: { query: { limit: 100, createdFrom: createdAt } } }));
      return events.filter((e) => (e.data as { id?: string }).id === id);
    },
  });
  const [refundValue, setRefundValue] = useState('');
  if (payment.isPending) return <Loading what="the payment" />;
  if (payment.isError) return <Failure error={payment.error} />;
  const p = payment.data;
  const refresh = () => queries.invalidateQueries({ queryKey: key });
  const headers = () => ({ 'idempotency-key': newIdempotencyKey() });
  const refundable = p.amountCaptured.value - p.amountRefunded.value;
  const refundMinor = Math.round(Number(refundValue || '0') * 10 ** (p.amount.exponent ?? 2));
  return (
    <section>
      <p>
        <a href={href('payments')}>← Payments</a>
      </p>
      <h1>
        Payment {p.orderCode} <Status value={p.status} />
      </h1>
      <dl className="facts">
        <dt>Amount</dt>
        <dd>{formatAmount(p.amount)}</dd>
        <dt>Captured</dt>
        <dd>{formatAmount(p.amountCaptured)}</dd>
        <dt>Refunded</dt>
        <dd>{formatAmount(p.amountRefunded)}</dd>
        <dt>Payment code</dt>
        <dd>{p.paymentCode}</dd>
        <dt>Card</dt>
        <dd>{p.card ? `${p.card.cardData.brand} ${p.card.cardData.cardNumber}` : p.paymentMethod}</dd>
        <dt>Connection</dt>
        <dd>{p.connectionName}</dd>
        <dt>Created</dt>
        <dd>{formatDate(p.createdAt)}</dd>
      </dl>
      <div className="actions">
        {can('money') && p.status === 'authorized' && (
          <ConfirmButton
            label="Capture"
            confirmText={`Capture ${formatAmount(p.amount)}?`}
            onConfirm={async () => {
              await unwrap(
                api.POST('/v1/payment/{id}/capture', {
                  params: { path: { id } },
                  headers: headers(),
                  body: { amount: p.amount },
                }),
              );
              await refresh();
            }}
          />
        )}
        {can('money') && p.status === 'authorized' && (
          <ConfirmButton
            label="Cancel payment"
            danger
            confirmText="Cancel this authorization? The held amount is released."
            onConfirm={async () => {
              await unwrap(
                api.POST('/v1/payment/{id}/cancel', { params: { path: { id } }, headers: headers(), body: {} }),
              );
              await refresh();
            }}
          />
        )}
        {can('refund') && refundable > 0 && (
          <ConfirmButton
            label="Refund"
            danger
            confirmText={`Refund up to ${formatAmount({ ...p.amount, value: refundable })} to the card.`}
            onConfirm={async () => {
              if (!(refundMinor > 0 && refundMinor <= refundable))
                throw new Error('Enter an amount up to the refundable one');
              await unwrap(
                api.POST('/v1/payment/{id}/refund', {
                  params: { path: { id } },
                  headers: headers(),
                  body: { amount: { ...p.amount, value: refundMinor } },
                }),
              );
              setRefundValue('');
              await refresh();
            }}
          >
            <label>
              Amount to refund ({p.amount.currency})
              <input inputMode="decimal" value={refundValue} onChange={(e) => setRefundValue(e.target.value)} />
            </label>
          </ConfirmButton>
        )}
      </div>
      <h2>Timeline</h2>
      {timeline.isPending ? (
        <Loading what="events" />
      ) : timeline.isError ? (
        <Failure error={timeline.error} />
      ) : (
        <ol className="timeline" aria-label="Timeline">
          {timeline.data.map((e) => (
            <li key={e.id}>
              <strong>{e.type}</strong> <span className="sub">{formatDate(e.createdAt)}</span>{' '}
              <a href={href('events', e.id)} aria-label={`Webhook deliveries of ${e.type}`}>
                webhook deliveries
              </a>
            </li>
          ))}
          <li>
            <strong>created</strong> <span className="sub">{formatDate(p.createdAt)}</span>
          </li>
        </ol>
      )}
    </section>
  );
}
