import { useInfiniteQuery } from '@tanstack/react-query';
import { useCan, useWorkspace } from '../context';
import { formatDate } from '../format';
import { auditLog, type AuditLogEntry } from '../session';
import { Failure, Loading } from '../ui';

const who = (e: AuditLogEntry): string =>
  e.channel === 'dashboard'
    ? (e.userEmail ?? 'a removed user')
    : e.channel === 'api'
      ? `API key ${e.apiKeyId}`
      : 'the operator';

const what = (e: AuditLogEntry): string =>
  Object.entries(e.detail)
    .map(([k, v]) => {
      if (k === 'amount' && v && typeof v === 'object') {
        const a = v as { value?: number; currency?: string; exponent?: number };
        return `amount ${a.value ?? ''} ${a.currency ?? ''}`.trim();
      }
      return `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`;
    })
    .join(', ');

export function AuditPage() {
  const { membership, environment } = useWorkspace();
  const can = useCan();
  const log = useInfiniteQuery({
    queryKey: ['audit', membership.merchantCode, environment],
    queryFn: ({ pageParam }) => auditLog(membership.merchantCode, environment, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.length === 50 ? last[last.length - 1].id : undefined),
    enabled: can('audit'),
  });
  if (!can('audit')) return <p>Only the merchant’s owners read the audit log.</p>;
  if (log.isPending) return <Loading what="the audit log" />;
  if (log.isError) return <Failure error={log.error} />;
  const entries = log.data.pages.flat();
  return (
    <section>
      <h1>Audit log ({environment})</h1>
      <p className="sub">Every change to the team, keys, webhooks, policies and money; nothing here can be changed.</p>
      <div className="table-wrap">
        <table aria-label="Audit log">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>What</th>
              <th>On</th>
              <th>Details</th>
              <th>From</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{formatDate(e.createdAt)}</td>
                <td>{who(e)}</td>
                <td>
                  <code>{e.type}</code>
                </td>
                <td>{e.target ? <code>{e.target}</code> : '—'}</td>
                <td>{what(e)}</td>
                <td>{e.clientAddress ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {entries.length === 0 && <p>No changes yet.</p>}
      {log.hasNextPage && (
        <button type="button" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          Older entries
        </button>
      )}
    </section>
  );
}
