import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan, useWorkspace } from '../context';
import { formatAmount, formatDate, newIdempotencyKey } from '../format';
import { href } from '../route';
import { unwrap } from '../session';
import { DunningFacts } from './dunning';
import { ConfirmButton, Failure, Loading, Status } from '../ui';
import { CardUpdateEmailsSwitch, CardUpdateLinkButton } from './card-update-link';

const STATUSES = ['trialing', 'active', 'past_due', 'suspended', 'paused', 'cancelled', 'completed', 'incomplete'];

export function SubscriptionsPage() {
  const { api, membership, environment } = useWorkspace();
  const [status, setStatus] = useState('');
  const list = useQuery({
    queryKey: ['subscriptions', membership.merchantCode, environment, status],
    queryFn: () =>
      unwrap(api.GET('/v1/subscription', { params: { query: { limit: 50, ...(status ? { status } : {}) } as never } })),
  });
  // The list answers plan ids; the plans give their names.
  const plans = useQuery({
    queryKey: ['plans', membership.merchantCode, environment],
    queryFn: () => unwrap(api.GET('/v1/subscription/plan', { params: { query: { limit: 100 } } })),
  });
  const planName = (id: number) => (plans.isPending ? '…' : (plans.data?.find((p) => p.id === id)?.name ?? id));
  return (
    <section>
      <h1>Subscriptions</h1>
      <CardUpdateEmailsSwitch />
      <div className="filters">
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
      </div>
      {list.isPending ? (
        <Loading what="subscriptions" />
      ) : list.isError ? (
        <Failure error={list.error} />
      ) : list.data.length === 0 ? (
        <p>No subscriptions.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Subscriptions">
            <thead>
              <tr>
                <th>Customer</th>
                <th>Plan</th>
                <th>Status</th>
                <th>Next billing</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((s) => (
                <tr key={s.id}>
                  <td>
                    <a href={href('subscriptions', s.id)}>{s.customerEmail}</a>
                  </td>
                  <td>{planName(s.planId)}</td>
                  <td>
                    <Status value={s.status} />
                  </td>
                  <td>{formatDate(s.nextBillingDate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function SubscriptionPage({ id }: { id: string }) {
  const { api, membership, environment } = useWorkspace();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['subscription', membership.merchantCode, environment, id];
  const sub = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/v1/subscription/{id}', { params: { path: { id } } })),
  });
  const invoices = useQuery({
    queryKey: [...key, 'invoices'],
    queryFn: () => unwrap(api.GET('/v1/subscription/{id}/invoice', { params: { path: { id } } })),
  });
  if (sub.isPending) return <Loading what="the subscription" />;
  if (sub.isError) return <Failure error={sub.error} />;
  const s = sub.data;
  const verb = (label: string, path: 'cancel' | 'pause' | 'resume' | 'retry-payment', text: string, danger = false) => (
    <ConfirmButton
      label={label}
      danger={danger}
      confirmText={text}
      onConfirm={async () => {
        await unwrap(
          api.POST(`/v1/subscription/{id}/${path}` as '/v1/subscription/{id}/cancel', {
            params: { path: { id } },
            headers: { 'idempotency-key': newIdempotencyKey() },
            body: {},
          }),
        );
        await queries.invalidateQueries({ queryKey: key });
      }}
    />
  );
  return (
    <section>
      <p>
        <a href={href('subscriptions')}>← Subscriptions</a>
      </p>
      <h1>
        Subscription of {s.customerEmail} <Status value={s.status} />
      </h1>
      <dl className="facts">
        <dt>Plan</dt>
        <dd>
          {s.plan
            ? `${s.plan.name}: ${formatAmount({ value: s.plan.amount, currency: s.plan.currency, exponent: s.plan.exponent })} every ${s.plan.intervalCount > 1 ? `${s.plan.intervalCount} ${s.plan.interval}s` : s.plan.interval}`
            : s.planId}
        </dd>
        <dt>Current period</dt>
        <dd>
          {formatDate(s.currentPeriodStart)} – {formatDate(s.currentPeriodEnd)}
        </dd>
        <dt>Next billing</dt>
        <dd>{formatDate(s.nextBillingDate)}</dd>
        <dt>Dunning</dt>
        <dd>
          <DunningFacts s={s} />
        </dd>
      </dl>
      <div className="actions">
        {can('money') &&
          s.status === 'past_due' &&
          verb('Retry payment', 'retry-payment', 'Charge the open invoice now with the card on file?')}
        {can('manage') &&
          (s.status === 'active' || s.status === 'trialing') &&
          verb('Pause', 'pause', 'Pause this subscription? No renewal is charged while paused.')}
        {can('manage') && s.status === 'paused' && verb('Resume', 'resume', 'Resume this subscription?')}
        {can('manage') &&
          !['cancelled', 'completed'].includes(s.status) &&
          verb('Cancel subscription', 'cancel', 'Cancel this subscription? This cannot be undone.', true)}
      </div>
      {can('manage') && ['past_due', 'suspended', 'active', 'trialing'].includes(s.status) && (
        <CardUpdateLinkButton subscriptionId={s.id} />
      )}
      <h2>Invoices</h2>
      {invoices.isPending ? (
        <Loading what="invoices" />
      ) : invoices.isError ? (
        <Failure error={invoices.error} />
      ) : (
        <div className="table-wrap">
          <table aria-label="Invoices">
            <thead>
              <tr>
                <th>Period</th>
                <th>Amount</th>
                <th>Status</th>
                <th>Attempts</th>
              </tr>
            </thead>
            <tbody>
              {invoices.data.map((i) => (
                <tr key={i.id}>
                  <td>
                    {formatDate(i.periodStart)} – {formatDate(i.periodEnd)}
                  </td>
                  <td>{formatAmount({ value: i.amount, currency: i.currency, exponent: i.exponent })}</td>
                  <td>
                    <Status value={i.status} />
                  </td>
                  <td>{i.paymentAttemptCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
