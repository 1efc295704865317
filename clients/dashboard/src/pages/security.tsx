import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useWorkspace } from '../context';
import { formatDate } from '../format';
import { sessionApi, SessionError } from '../session';
import { ConfirmButton } from '../ui';

/**
 * The signed-in user's own security: two-factor sign-in (TOTP) for owners, and signing out every session of
 * this user (other browsers and devices too).
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
      {isOwner && !session.user.totpEnabled && <TotpEnrolment />}
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

/** Enrolment: a new secret for the authenticator app, on once the first code it shows is confirmed. */
function TotpEnrolment() {
  const { session } = useWorkspace();
  const queries = useQueryClient();
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauthUrl: string }>();
  const [error, setError] = useState<string>();
  const start = async () => {
    setError(undefined);
    try {
      setEnrolment(await sessionApi.enrollTotp(session));
    } catch (e) {
      setError(e instanceof SessionError ? e.message : 'Starting the set-up failed');
    }
  };
  const confirm = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code') ?? '').trim();
    setError(undefined);
    try {
      await sessionApi.confirmTotp(session, code);
      setEnrolment(undefined);
      await queries.invalidateQueries({ queryKey: ['session'] });
    } catch (err) {
      setError(err instanceof SessionError ? err.message : 'Confirming the code failed');
    }
  };
  return (
    <div>
      <h2>Two-factor sign-in</h2>
      {!enrolment ? (
        <button type="button" className="primary" onClick={start}>
          Set up two-factor sign-in
        </button>
      ) : (
        <form onSubmit={confirm} aria-label="Confirm two-factor sign-in">
          <p>
            Add this account to an authenticator app: open <a href={enrolment.otpauthUrl}>the set-up link</a> on the
            phone, or type the key in.
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
              Turn on
            </button>
          </div>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
