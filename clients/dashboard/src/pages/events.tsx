import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useWorkspace } from '../context';
import { formatDate } from '../format';
import { unwrap } from '../session';
import type { EventType } from '../../../typescript/src/generated/events';
import { Failure, Loading } from '../ui';

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
              <span className="sub">{formatDate(e.createdAt)}</span>
              {open === e.id && <pre>{JSON.stringify(e.data, null, 2)}</pre>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
