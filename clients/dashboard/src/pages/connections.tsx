import { useQuery } from '@tanstack/react-query';
import { useWorkspace } from '../context';
import { formatDate } from '../format';
import { sessionApi, type ConnectionView } from '../session';
import { Failure, Loading } from '../ui';
import { CIRCUIT_LABELS, credentialHints, FAILURE_REASONS, formatErrorRate, healthBadge } from './connection-health';

const CONNECTORS: Record<string, string> = { sandbox: 'Simulator', adyen: 'Adyen', stripe: 'Stripe' };

const accepts = (c: ConnectionView): string =>
  `${c.currencies.length ? c.currencies.join(', ') : 'every currency'} · ${
    c.methods.length ? c.methods.join(', ') : 'every method'
  }`;

export function ConnectionsPage() {
  const { membership, environment } = useWorkspace();
  const connections = useQuery({
    queryKey: ['connections', membership.merchantCode, environment],
    queryFn: () => sessionApi.connections(membership.merchantCode, environment),
    refetchInterval: 15_000,
  });
  return (
    <section>
      <h1>Connections ({environment})</h1>
      <p className="sub">
        Where payments go, in routing order: the first connection that accepts a payment’s currency and method takes it.
        Health is as one payments server sees it (the last 100 calls); a decline counts as an answer.
      </p>
      {connections.isPending ? (
        <Loading what="connections" />
      ) : connections.isError ? (
        <Failure error={connections.error} />
      ) : connections.data.length === 0 ? (
        <p className="empty" role="status">
          {environment === 'production'
            ? 'No production connection yet: payments are refused with NO_CONNECTION until your operator adds one.'
            : 'No sandbox connection: payments are refused with NO_CONNECTION until your operator adds one.'}
        </p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Connections">
            <thead>
              <tr>
                <th>#</th>
                <th>Connector</th>
                <th>Name</th>
                <th>Accepts</th>
                <th>Credentials</th>
                <th>Health</th>
                <th>Circuit</th>
                <th>Error rate</th>
                <th>Last success</th>
                <th>Last failure</th>
              </tr>
            </thead>
            <tbody>
              {connections.data.map((c, i) => {
                const badge = healthBadge(c.health);
                const hints = credentialHints(c.credentials);
                return (
                  <tr key={c.id}>
                    <td>{i + 1}</td>
                    <td>{CONNECTORS[c.acquirer] ?? c.acquirer}</td>
                    <td>
                      {c.connectionName}
                      <br />
                      <code className="sub">{c.connectionCode}</code>
                      {c.isDefault && <span className="sub"> (default)</span>}
                    </td>
                    <td>{accepts(c)}</td>
                    <td>
                      {hints.length ? (
                        hints.map((h) => (
                          <div key={h} className="hint">
                            {h}
                          </div>
                        ))
                      ) : (
                        <span className="sub">none</span>
                      )}
                    </td>
                    <td>
                      <span className={`status health-${badge}`}>{badge}</span>
                    </td>
                    <td>{CIRCUIT_LABELS[c.health.circuit]}</td>
                    <td>
                      {c.health.recentCalls ? (
                        <>
                          {formatErrorRate(c.health.errorRate)}
                          <div className="sub">of {c.health.recentCalls} calls</div>
                        </>
                      ) : (
                        <span className="sub">no calls yet</span>
                      )}
                    </td>
                    <td>{formatDate(c.health.lastSuccessAt)}</td>
                    <td>
                      {formatDate(c.health.lastFailureAt)}
                      {c.health.lastFailureReason && (
                        <div className="sub">{FAILURE_REASONS[c.health.lastFailureReason]}</div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
