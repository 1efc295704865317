import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useWorkspace } from '../context';
import { formatDate } from '../format';
import { sessionApi, SessionError, type AuditEventView } from '../session';
import { ConfirmButton } from '../ui';

/**
 * The signed-in user's own security: two-factor sign-in (TOTP) for owners, set up, replaced or turned off with
 * the password and the current code; the audit trail of those changes; signing out every session of this user.
 */
export function SecurityPage() {
  const { session } = useWorkspace();
  const queries = useQueryClient();
  const isOwner = session.memberships.some((m) => m.role === 'owner');
  return (
    <section>
      <h1>Security</h1>
      <dl className="facts">
        <dt>Signed in as</dt>
        <dd>{session.user.email}</dd>
        <dt>This session ends</dt>
        <dd>{formatDate(session.expiresAt)} unless used before then</dd>
        <dt>Two-factor sign-in</dt>
        <dd>{session.user.totpEnabled ? 'on: signing in asks for a code from the authenticator app' : 'off'}</dd>
      </dl>
      {(isOwner || session.user.totpEnabled) && <TotpSettings canSetUp={isOwner} />}
      <AuditTrail />
      <h2>Sessions</h2>
      <p>Signing out everywhere ends this session and every other one of {session.user.email}.</p>
      <ConfirmButton
        label="Sign out everywhere"
        danger
        confirmText="End every session of this user, on every browser and device?"
        onConfirm={async () => {
          await sessionApi.signOutEverywhere(session);
          queries.clear();
          window.location.hash = '#/sign-in';
          await queries.invalidateQueries({ queryKey: ['session'] });
        }}
      />
    </section>
  );
}

const message = (e: unknown, fallback: string) => (e instanceof SessionError ? e.message : fallback);

/**
 * Set up (or, when on, replace) the secret, then confirm a code from the new one; or turn TOTP off. Every step
 * that changes it asks for the password, and for the current code while TOTP is on.
 */
function TotpSettings({ canSetUp }: { canSetUp: boolean }) {
  const { session } = useWorkspace();
  const queries = useQueryClient();
  const on = session.user.totpEnabled;
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauthUrl: string }>();
  const [error, setError] = useState<string>();
  const changed = async () => {
    await queries.invalidateQueries({ queryKey: ['session'] });
    await queries.invalidateQueries({ queryKey: ['audit-events'] });
  };
  const fields = (form: HTMLFormElement) => {
    const data = new FormData(form);
    return {
      password: String(data.get('password') ?? ''),
      code: String(data.get('current-code') ?? '').trim() || undefined,
    };
  };
  const setUp = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const { password, code } = fields(e.currentTarget);
    setError(undefined);
    try {
      setEnrolment(await sessionApi.setUpTotp(session, password, code));
    } catch (err) {
      setError(message(err, 'Starting the set-up failed'));
    }
  };
  const remove = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const { password, code } = fields(e.currentTarget);
    setError(undefined);
    try {
      await sessionApi.removeTotp(session, password, code ?? '');
      await changed();
    } catch (err) {
      setError(message(err, 'Turning two-factor sign-in off failed'));
    }
  };
  const confirm = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code') ?? '').trim();
    setError(undefined);
    try {
      await sessionApi.confirmTotp(session, code);
      setEnrolment(undefined);
      await changed();
    } catch (err) {
      setError(message(err, 'Confirming the code failed'));
    }
  };
  const credentials = (
    <>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {on && (
        <label>
          Current code from the app
          <input name="current-code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required />
        </label>
      )}
    </>
  );
  return (
    <div>
      <h2>Two-factor sign-in</h2>
      {enrolment ? (
        <form onSubmit={confirm} aria-label="Confirm two-factor sign-in">
          <p>
            Add this account to an authenticator app: open <a href={enrolment.otpauthUrl}>the set-up link</a> on the
            phone, or type the key in. {on && 'Until you confirm a code from it, sign-ins ask for the old one.'}
          </p>
          <p className="once">
            Set-up key: <code>{enrolment.secret}</code>
          </p>
          <div className="filters">
            <label>
              Code from the app
              <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required />
            </label>
            <button type="submit" className="primary">
              {on ? 'Use the new key' : 'Turn on'}
            </button>
          </div>
        </form>
      ) : (
        <>
          {canSetUp && (
            <form
              className="filters"
              onSubmit={setUp}
              aria-label={on ? 'Replace the key' : 'Set up two-factor sign-in'}
            >
              {credentials}
              <button type="submit" className="primary">
                {on ? 'Replace the key' : 'Set up two-factor sign-in'}
              </button>
            </form>
          )}
          {on && (
            <form className="filters" onSubmit={remove} aria-label="Turn off two-factor sign-in">
              {credentials}
              <button type="submit" className="danger">
                Turn off two-factor sign-in
              </button>
            </form>
          )}
        </>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}

const EVENT_TEXT: Record<AuditEventView['type'], string> = {
  'totp.enabled': 'Two-factor sign-in turned on',
  'totp.replaced': 'Two-factor sign-in key replaced',
  'totp.disabled': 'Two-factor sign-in turned off',
};

/** The user's own audit trail: every change of their second factor, newest first. */
function AuditTrail() {
  const events = useQuery({ queryKey: ['audit-events'], queryFn: sessionApi.auditEvents });
  if (!events.data?.length) return null;
  return (
    <>
      <h2>Recent changes</h2>
      <ul aria-label="Recent changes">
        {events.data.map((e) => (
          <li key={e.id}>
            {formatDate(e.createdAt)}: {EVENT_TEXT[e.type]}
            {e.clientAddress && <span className="sub"> (from {e.clientAddress})</span>}
          </li>
        ))}
      </ul>
    </>
  );
}
