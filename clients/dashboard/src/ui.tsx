import { useState, type ReactNode } from 'react';

/** An action that changes something: a button that opens a confirmation naming what will happen. */
export function ConfirmButton(props: {
  /** The accessible name (and, without `text`, the words shown). */
  label: string;
  /** Shorter words to show where the name is long (the name still says everything). */
  text?: string;
  confirmText: string;
  onConfirm: () => Promise<unknown>;
  danger?: boolean;
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
      setOpen(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={props.danger ? 'danger' : undefined}
        aria-label={props.text ? props.label : undefined}
        onClick={() => setOpen(true)}
      >
        {props.text ?? props.label}
      </button>
      {open && (
        <div className="overlay">
          <div role="dialog" aria-modal="true" aria-label={props.label} className="dialog">
            <p>{props.confirmText}</p>
            {props.children}
            {error && (
              <p role="alert" className="error">
                {error}
              </p>
            )}
            <div className="actions">
              <button type="button" onClick={() => setOpen(false)} disabled={busy}>
                Back
              </button>
              <button
                type="button"
                className={props.danger ? 'danger' : 'primary'}
                aria-label={props.text && !busy ? `Confirm: ${props.label}` : undefined}
                onClick={confirm}
                disabled={busy}
              >
                {busy ? 'Working…' : `Confirm: ${props.text ?? props.label}`}
              </button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}

export function Loading({ what }: { what: string }) {
  return <p aria-busy="true">Loading {what}…</p>;
}

export function Failure({ error }: { error: unknown }) {
  return (
    <p role="alert" className="error">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

export function Status({ value }: { value: string }) {
  return <span className={`status status-${value}`}>{value.replace(/_/g, ' ')}</span>;
}

/** What each delivery error class (the API's `error`) means, as the delivery log shows it. */
const DELIVERY_ERROR_TEXT: Record<string, string> = {
  http_status: 'answered with an error status',
  refused: 'connection refused',
  reset: 'connection reset',
  timeout: 'no answer in time',
  unreachable: 'address unreachable',
  tls: 'TLS handshake failed',
  dns: 'host name not found',
  private_target: 'private address refused',
  invalid_url: 'not an https URL',
  network: 'network error',
  endpoint_deleted: 'endpoint deleted',
  endpoint_disabled: 'endpoint disabled',
  no_secret: 'no signing secret',
};

/** One try's answer: the receiver's status, why the try failed, and the start of the answer's body on demand. */
export function AttemptAnswer({
  attempt,
}: {
  attempt: { attempt: number; responseStatus: number | null; responseExcerpt: string | null; error: string | null };
}) {
  return (
    <>
      {attempt.responseStatus ?? '—'}{' '}
      {attempt.error && <span className="sub">{DELIVERY_ERROR_TEXT[attempt.error] ?? attempt.error}</span>}
      {attempt.responseExcerpt && (
        <details className="answer">
          <summary aria-label={`Answer body of attempt ${attempt.attempt}`}>Answer body</summary>
          <pre>{attempt.responseExcerpt}</pre>
        </details>
      )}
    </>
  );
}
