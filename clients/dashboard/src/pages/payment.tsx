import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan, useWorkspace } from '../context';
import { formatAmount, formatDate, newIdempotencyKey } from '../format';
import { href } from '../route';
import { unwrap, type SessionView } from '../session';
import { ConfirmButton, Failure, Loading, Status } from '../ui';
import { displayStatus } from './payment-status';

const REASON_MAX = 255;

type Actor = { type: 'api_key' | 'dashboard_user'; id: string } | null;

/** Who made a refund, as a person reads it. */
function actorText(actor: Actor, session: SessionView): string {
  if (!actor) return '—';
  if (actor.type === 'api_key') return `API key ${actor.id}`;
  return actor.id === session.user.id ? `${session.user.email} (you)` : `Dashboard user ${actor.id}`;
}

export function PaymentPage({ id }: { id: string }) {
  const { api, membership, environment, session } = useWorkspace();
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
  const [reason, setReason] = useState('');
  if (payment.isPending) return <Loading what="the payment" />;
  if (payment.isError) return <Failure error={payment.error} />;
  const p = payment.data;
  const refresh = () => queries.invalidateQueries({ queryKey: key });
  const headers = () => ({ 'idempotency-key': newIdempotencyKey() });
  const refundable = p.amountCaptured.value - p.amountRefunded.value;
  const refundMinor = Math.round(Number(refundValue || '0') * 10 ** (p.amount.exponent ?? 2));
  const refunds = p.refunds ?? [];
  return (
    <section>
      <p>
        <a href={href('payments')}>← Payments</a>
      </p>
      <h1>
        Payment {p.orderCode} <Status value={displayStatus(p)} />
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
              const why = reason.trim();
              await unwrap(
                api.POST('/v1/payment/{id}/refund', {
                  params: { path: { id } },
                  headers: headers(),
                  body: { amount: { ...p.amount, value: refundMinor }, ...(why ? { reason: why } : {}) },
                }),
              );
              setRefundValue('');
              setReason('');
              await refresh();
            }}
          >
            <label>
              Amount to refund ({p.amount.currency})
              <input inputMode="decimal" value={refundValue} onChange={(e) => setRefundValue(e.target.value)} />
            </label>
            <label>
              Reason (optional)
              <input maxLength={REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} />
            </label>
          </ConfirmButton>
        )}
      </div>
      <h2>Refunds</h2>
      {refunds.length === 0 ? (
        <p>No refunds.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Refunds">
            <thead>
              <tr>
                <th>Amount</th>
                <th>Reason</th>
                <th>By</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {refunds.map((r) => (
                <tr key={r.id}>
                  <td>{formatAmount(r.amount)}</td>
                  <td>{r.reason ?? '—'}</td>
                  <td>{actorText(r.refundedBy, session)}</td>
                  <td>{formatDate(r.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
