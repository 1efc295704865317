import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { sessionApi, SessionError } from '../session';

export function SignIn() {
  const queries = useQueryClient();
  const [error, setError] = useState<string>();
  const [needsCode, setNeedsCode] = useState(false);
  const [forgot, setForgot] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setError(undefined);
    try {
      await sessionApi.signIn(String(form.get('email')), String(form.get('password')), String(form.get('totp') ?? ''));
      window.location.hash = '#/home';
      await queries.invalidateQueries({ queryKey: ['session'] });
    } catch (err) {
      if (err instanceof SessionError && err.code === 'TOTP_REQUIRED') setNeedsCode(true);
      setError(err instanceof SessionError ? err.message : 'Signing in failed');
    }
  };
  if (forgot) return <ForgotPassword onBack={() => setForgot(false)} />;
  return (
    <main className="auth">
      <h1>Sign in to the dashboard</h1>
      <form onSubmit={submit}>
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {needsCode && (
          <label>
            Authenticator code
            <input name="totp" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required />
          </label>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary">
          Sign in
        </button>
      </form>
      <p>
        <button type="button" className="link" onClick={() => setForgot(true)}>
          Forgot your password?
        </button>
      </p>
    </main>
  );
}

export function AcceptInvitation({ token }: { token: string }) {
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password'));
    if (password !== String(form.get('repeat'))) return setError('The two passwords differ');
    setError(undefined);
    try {
      const { email } = await sessionApi.acceptInvitation(token, password);
      setDone(email);
    } catch (err) {
      setError(err instanceof SessionError ? err.message : 'Setting the password failed');
    }
  };
  if (done) {
    return (
      <main className="auth">
        <h1>Password set</h1>
        <p>
          {done} can now <a href="#/sign-in">sign in</a>.
        </p>
      </main>
    );
  }
  return (
    <main className="auth">
      <h1>Set your password</h1>
      <form onSubmit={submit}>
        <label>
          New password (12 characters or more)
          <input name="password" type="password" autoComplete="new-password" minLength={12} required />
        </label>
        <label>
          Repeat the password
          <input name="repeat" type="password" autoComplete="new-password" minLength={12} required />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary">
          Set password
        </button>
      </form>
    </main>
  );
}

function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [sent, setSent] = useState<string>();
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get('email'));
    setError(undefined);
    try {
      await sessionApi.requestPasswordReset(email);
      setSent(email);
    } catch (err) {
      setError(err instanceof SessionError ? err.message : 'Asking for a reset failed');
    }
  };
  return (
    <main className="auth">
      <h1>Reset your password</h1>
      {sent ? (
        <p role="status">
          If {sent} has an account, an email with a link to choose a new password is on its way. The link works once,
          within an hour.
        </p>
      ) : (
        <form onSubmit={submit}>
          <label>
            Email
            <input name="email" type="email" autoComplete="username" required />
          </label>
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          <button type="submit" className="primary">
            Email me a link
          </button>
        </form>
      )}
      <p>
        <button type="button" className="link" onClick={onBack}>
          Back to sign in
        </button>
      </p>
    </main>
  );
}

export function ResetPassword({ token }: { token: string }) {
  return <NewPassword title="Choose a new password" set={(password) => sessionApi.resetPassword(token, password)} />;
}

function NewPassword({ title, set }: { title: string; set: (password: string) => Promise<{ email: string }> }) {
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password'));
    if (password !== String(form.get('repeat'))) return setError('The two passwords differ');
    setError(undefined);
    try {
      setDone((await set(password)).email);
    } catch (err) {
      setError(err instanceof SessionError ? err.message : 'Setting the password failed');
    }
  };
  if (done) {
    return (
      <main className="auth">
        <h1>Password set</h1>
        <p>
          {done} can now <a href="#/sign-in">sign in</a>.
        </p>
      </main>
    );
  }
  return (
    <main className="auth">
      <h1>{title}</h1>
      <form onSubmit={submit}>
        <label>
          New password (12 characters or more)
          <input name="password" type="password" autoComplete="new-password" minLength={12} required />
        </label>
        <label>
          Repeat the password
          <input name="repeat" type="password" autoComplete="new-password" minLength={12} required />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary">
          Set password
        </button>
      </form>
    </main>
  );
}
