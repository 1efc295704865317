import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useWorkspace } from '../context';
import { formatDate } from '../format';
import { href } from '../route';
import { unwrap } from '../session';
import type { EventType } from '../../../typescript/src/generated/events';
import { Failure, Loading, Status, AttemptAnswer } from '../ui';
import { ResendButton } from './delivery';

export function EventsPage() {
  const { api, membership, environment } = useWorkspace();
  const [type, setType] = useState('');
  const [open, setOpen] = useState<string>();
  const events = useQuery({
    queryKey: ['events', membership.merchantCode, environment, type],
    queryFn: () =>
      unwrap(api.GET('/v1/events', { params: { query: { limit: 50, ...(type ? { type: type as EventType } : {}) } } })),
  });
  return (
    <section>
      <h1>Events</h1>
      <div className="filters">
        <label>
          Type <input value={type} onChange={(e) => setType(e.target.value.trim())} placeholder="payment.captured" />
        </label>
      </div>
      {events.isPending ? (
        <Loading what="events" />
      ) : events.isError ? (
        <Failure error={events.error} />
      ) : (
        <ul className="cards">
          {events.data.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                className="link"
                aria-expanded={open === e.id}
                onClick={() => setOpen(open === e.id ? undefined : e.id)}
              >
                {e.type}
              </button>{' '}
              <span className="sub">{formatDate(e.createdAt)}</span>{' '}
              <a href={href('events', e.id)} aria-label={`Deliveries of ${e.type} ${e.id}`}>
                deliveries
              </a>
              {open === e.id && <pre aria-label="Event data">{JSON.stringify(e.data, null, 2)}</pre>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Attempts read per endpoint: the delivery log answers at most this many, newest first. */
const LOG_PAGE = 100;

/**
 * One event and its deliveries. No route answers deliveries by event, so this reads the latest attempts of each
 * endpoint that takes the event's type and keeps this event's; older attempts are in the endpoint's own log.
 */
export function EventPage({ id }: { id: string }) {
  const { api, membership, environment } = useWorkspace();
  const queries = useQueryClient();
  const key = ['event', membership.merchantCode, environment, id];
  const event = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/v1/events/{id}', { params: { path: { id } } })),
  });
  const deliveries = useQuery({
    queryKey: [...key, 'deliveries'],
    enabled: event.isSuccess,
    queryFn: async () => {
      const endpoints = await unwrap(api.GET('/v1/webhook-endpoint', {}));
      const taking = endpoints.filter((ep) => ep.events.some((t) => t === '*' || t === event.data?.type));
      const logs = await Promise.all(
        taking.map(async (ep) => {
          const log = await unwrap(
            api.GET('/v1/webhook-endpoint/{id}/deliveries', {
              params: { path: { id: ep.id }, query: { limit: LOG_PAGE } },
            }),
          );
          return log.filter((d) => d.eventId === id).map((d) => ({ ...d, endpoint: ep }));
        }),
      );
      return logs.flat();
    },
  });
  if (event.isPending) return <Loading what="the event" />;
  if (event.isError) return <Failure error={event.error} />;
  const e = event.data;
  return (
    <section>
      <p>
        <a href={href('events')}>← Events</a>
      </p>
      <h1>Event {e.type}</h1>
      <dl className="facts">
        <dt>Id (Webhook-Id)</dt>
        <dd>
          <code>{e.id}</code>
        </dd>
        <dt>Created</dt>
        <dd>{formatDate(e.createdAt)}</dd>
      </dl>
      <h2>Deliveries to endpoints</h2>
      {deliveries.isPending ? (
        <Loading what="deliveries" />
      ) : deliveries.isError ? (
        <Failure error={deliveries.error} />
      ) : deliveries.data.length === 0 ? (
        <p>No endpoint&rsquo;s latest {LOG_PAGE} attempts include this event.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Deliveries of this event">
            <thead>
              <tr>
                <th>Endpoint</th>
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
                    <a href={href('webhooks', d.endpoint.id)}>{d.endpoint.url}</a>
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
                      endpointId={d.endpoint.id}
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
      <p className="sub">
        Resend is offered on a delivery&rsquo;s newest try while it has not succeeded and its endpoint is enabled.
        Deliveries to a payment&rsquo;s own webhookUrl are not listed here.
      </p>
      <h2>Data</h2>
      <pre aria-label="Event data">{JSON.stringify(e.data, null, 2)}</pre>
    </section>
  );
}
