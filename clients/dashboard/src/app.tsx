import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { WorkspaceContext, type Workspace } from './context';
import { AcceptInvitation, ResetPassword, SignIn } from './pages/sign-in';
import { Pages, NAV } from './pages';
import { href, useRoute } from './route';
import { apiClientFor, sessionApi, SessionError, type Environment, type SessionView } from './session';

export function App() {
  const route = useRoute();
  const session = useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        return await sessionApi.current();
      } catch (e) {
        if (e instanceof SessionError && e.status === 401) return null;
        throw e;
      }
    },
  });
  if (route[0] === 'invite' && route[1]) return <AcceptInvitation token={route[1]} />;
  if (route[0] === 'reset' && route[1]) return <ResetPassword token={route[1]} />;
  if (session.isPending) return <p aria-busy="true">Loading…</p>;
  if (!session.data) return <SignIn />;
  return <Shell session={session.data} route={route} />;
}

function Shell({ session, route }: { session: SessionView; route: string[] }) {
  const queries = useQueryClient();
  const [merchantCode, setMerchantCode] = useState(session.memberships[0]?.merchantCode ?? '');
  const [environment, setEnvironment] = useState<Environment>('sandbox');
  const membership = session.memberships.find((m) => m.merchantCode === merchantCode);
  const workspace = useMemo<Workspace | undefined>(
    () =>
      membership && {
        session,
        membership,
        environment,
        api: apiClientFor(session, membership.merchantCode, environment),
      },
    [session, membership, environment],
  );
  const signOut = async () => {
    await sessionApi.signOut(session);
    queries.clear();
    window.location.hash = '#/sign-in';
    await queries.invalidateQueries({ queryKey: ['session'] });
  };
  if (!workspace) return <p role="alert">This user belongs to no merchant yet: ask an operator to add one.</p>;
  const page = route[0] && NAV.some((n) => n.path === route[0]) ? route[0] : 'home';
  return (
    <WorkspaceContext.Provider value={workspace}>
      <div className={`shell env-${environment}`}>
        {environment === 'sandbox' && (
          <div className="sandbox-banner" role="status">
            Sandbox: test data, no real money moves
          </div>
        )}
        <header className="top">
          <strong className="brand">Payments</strong>
          <label>
            Merchant{' '}
            <select value={merchantCode} onChange={(e) => setMerchantCode(e.target.value)}>
              {session.memberships.map((m) => (
                <option key={m.merchantCode} value={m.merchantCode}>
                  {m.merchantName} ({m.role})
                </option>
              ))}
            </select>
          </label>
          <fieldset className="env-switch">
            <legend>Environment</legend>
            {(['sandbox', 'production'] as const).map((env) => (
              <label key={env}>
                <input
                  type="radio"
                  name="environment"
                  value={env}
                  checked={environment === env}
                  onChange={() => setEnvironment(env)}
                />{' '}
                {env === 'sandbox' ? 'Sandbox' : 'Production'}
              </label>
            ))}
          </fieldset>
          <span className="who">{session.user.email}</span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </header>
        <nav aria-label="Sections" className="nav">
          {NAV.filter((n) => !n.owner || membership?.role === 'owner')
            .filter((n) => !n.sandbox || environment === 'sandbox')
            .map((n) => (
              <a key={n.path} href={href(n.path)} aria-current={page === n.path ? 'page' : undefined}>
                {n.label}
              </a>
            ))}
        </nav>
        <main>
          <Pages key={`${merchantCode}/${environment}`} page={page} rest={route.slice(1)} />
        </main>
      </div>
    </WorkspaceContext.Provider>
  );
}
