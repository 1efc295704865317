import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useCan, useWorkspace } from '../context';
import { formatDate, newIdempotencyKey } from '../format';
import { href } from '../route';
import { unwrap } from '../session';
import type { EventType } from '../../../typescript/src/generated/events';
import { ConfirmButton, Failure, Loading, Status, AttemptAnswer } from '../ui';
import { DeliveryEvent, ResendButton } from './delivery';

export function WebhooksPage() {
  const { api, membership, environment } = useWorkspace();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['endpoints', membership.merchantCode, environment];
  const endpoints = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/v1/webhook-endpoint', {})) });
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();
  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const events = String(data.get('events') || '*')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    setError(undefined);
    const created = await api.POST('/v1/webhook-endpoint', {
      headers: { 'idempotency-key': newIdempotencyKey() },
      body: { url: String(data.get('url')), events: events as Array<EventType | '*'> },
    });
    if (created.error) {
      return setError((created.error as { error?: { message?: string } }).error?.message ?? 'Creating failed');
    }
    setSecret(created.data.secret);
    form.reset();
    await queries.invalidateQueries({ queryKey: key });
  };
  return (
    <section>
      <h1>Webhook endpoints</h1>
      {can('manage') && (
        <form className="filters" onSubmit={create} aria-label="New webhook endpoint">
          <label>
            URL (HTTPS) <input name="url" type="url" required placeholder="https://shop.example/webhooks" />
          </label>
          <label>
            Events (comma-separated, * for all) <input name="events" defaultValue="*" />
          </label>
          <button type="submit" className="primary">
            Add endpoint
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {secret && (
        <p role="status" className="once">
          Signing secret, shown once: <code>{secret}</code>
        </p>
      )}
      {endpoints.isPending ? (
        <Loading what="endpoints" />
      ) : endpoints.isError ? (
        <Failure error={endpoints.error} />
      ) : endpoints.data.length === 0 ? (
        <p>No endpoints.</p>
      ) : (
        <ul className="cards">
          {endpoints.data.map((ep) => (
            <li key={ep.id}>
              <a href={href('webhooks', ep.id)}>{ep.url}</a> {ep.disabled && <Status value="disabled" />}
              <div className="sub">{ep.events.join(', ')}</div>
            </li>
          ))}
        </ul>
      )}
      <AccountSecret />
    </section>
  );
}

/** The account signing secret (deliveries to a payment's webhookUrl): owners roll it, with a grace period. */
function AccountSecret() {
  const { api } = useWorkspace();
  const can = useCan();
  const [rolled, setRolled] = useState<{ secret: string; previousSecretExpiresAt?: string | null }>();
  if (!can('secrets')) return null;
  return (
    <div>
      <h2>Account signing secret</h2>
      <ConfirmButton
        label="Roll account secret"
        danger
        confirmText="Make a new account signing secret? The old one keeps signing for its grace period."
        onConfirm={async () => {
          setRolled(
            await unwrap(
              api.POST('/v1/webhook-secret/roll', { headers: { 'idempotency-key': newIdempotencyKey() }, body: {} }),
            ),
          );
        }}
      />
      {rolled && (
        <p role="status" className="once">
          New secret: <code>{rolled.secret}</code>; the old one works until {formatDate(rolled.previousSecretExpiresAt)}
        </p>
      )}
    </div>
  );
}

export function WebhookEndpointPage({ id }: { id: string }) {
  const { api, membership, environment } = useWorkspace();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['endpoint', membership.merchantCode, environment, id];
  const endpoint = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/v1/webhook-endpoint/{id}', { params: { path: { id } } })),
  });
  const deliveries = useQuery({
    queryKey: [...key, 'deliveries'],
    queryFn: () => unwrap(api.GET('/v1/webhook-endpoint/{id}/deliveries', { params: { path: { id } } })),
  });
  const [rolled, setRolled] = useState<{ secret?: string; previousSecretExpiresAt?: string | null }>();
  const refresh = () => queries.invalidateQueries({ queryKey: key });
  const keyed = { 'idempotency-key': newIdempotencyKey() };
  if (endpoint.isPending) return <Loading what="the endpoint" />;
  if (endpoint.isError) return <Failure error={endpoint.error} />;
  const ep = endpoint.data;
  return (
    <section>
      <p>
        <a href={href('webhooks')}>← Webhooks</a>
      </p>
      <h1>
        {ep.url} {ep.disabled && <Status value="disabled" />}
      </h1>
      <div className="actions">
        {can('manage') && (
          <ConfirmButton
            label={ep.disabled ? 'Enable endpoint' : 'Disable endpoint'}
            confirmText={ep.disabled ? 'Deliver to this endpoint again?' : 'Stop delivering to this endpoint?'}
            onConfirm={async () => {
              await unwrap(
                api.PATCH('/v1/webhook-endpoint/{id}', {
                  params: { path: { id } },
                  headers: keyed,
                  body: { disabled: !ep.disabled },
                }),
              );
              await refresh();
            }}
          />
        )}
        {can('secrets') && (
          <ConfirmButton
            label="Roll secret"
            danger
            confirmText="Make a new signing secret? The old one keeps signing for its grace period."
            onConfirm={async () => {
              setRolled(
                await unwrap(
                  api.POST('/v1/webhook-endpoint/{id}/roll-secret', {
                    params: { path: { id } },
                    headers: keyed,
                    body: {},
                  }),
                ),
              );
            }}
          />
        )}
        {can('manage') && (
          <ConfirmButton
            label="Delete endpoint"
            danger
            confirmText="Delete this endpoint? Pending deliveries are given up."
            onConfirm={async () => {
              await unwrap(api.DELETE('/v1/webhook-endpoint/{id}', { params: { path: { id } }, headers: keyed }));
              window.location.hash = '#/webhooks';
            }}
          />
        )}
      </div>
      {rolled?.secret && (
        <p role="status" className="once">
          New secret: <code>{rolled.secret}</code>; the old one works until {formatDate(rolled.previousSecretExpiresAt)}
        </p>
      )}
      <h2>Delivery log</h2>
      {deliveries.isPending ? (
        <Loading what="deliveries" />
      ) : deliveries.isError ? (
        <Failure error={deliveries.error} />
      ) : deliveries.data.length === 0 ? (
        <p>No deliveries yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Delivery log">
            <thead>
              <tr>
                <th>Event</th>
                <th>Attempt</th>
                <th>Status</th>
                <th>Answer</th>
                <th>When</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((d) => (
                <tr key={d.id}>
                  <td>
                    <DeliveryEvent d={d} />
                  </td>
                  <td>{d.attempt}</td>
                  <td>
                    <Status value={d.status} />
                  </td>
                  <td>
                    <AttemptAnswer attempt={d} />
                  </td>
                  <td>{formatDate(d.attemptedAt ?? d.nextAttemptAt)}</td>
                  <td>
                    <ResendButton
                      endpointId={id}
                      d={d}
                      onDone={() => queries.invalidateQueries({ queryKey: [...key, 'deliveries'] })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <button type="button" onClick={() => deliveries.refetch()}>
        Refresh the log
      </button>
    </section>
  );
}
