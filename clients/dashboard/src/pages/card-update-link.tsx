import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan, useWorkspace } from '../context';
import { formatDate, newIdempotencyKey } from '../format';
import { unwrap } from '../session';

/**
 * "Card-update link" on a subscription page: makes a one-time hosted link (POST
 * /v1/subscription/{id}/card-update-link) and shows it, with a copy button, to send to the customer.
 */
export function CardUpdateLinkButton({ subscriptionId }: { subscriptionId: string }) {
  const { api } = useWorkspace();
  const [link, setLink] = useState<{ url: string; expiresAt: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [copied, setCopied] = useState(false);
  const create = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const made = await unwrap(
        api.POST('/v1/subscription/{id}/card-update-link', {
          params: { path: { id: subscriptionId } },
          headers: { 'idempotency-key': newIdempotencyKey() },
          body: {},
        }),
      );
      setLink({ url: made.url, expiresAt: made.expiresAt });
      setCopied(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="card-update-link">
      <button type="button" disabled={busy} onClick={create}>
        {link ? 'New card-update link' : 'Card-update link'}
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {link && (
        <p role="status">
          <label htmlFor="card-update-url">
            Send this link to the customer (works once, until {formatDate(link.expiresAt)}):
          </label>{' '}
          <input id="card-update-url" readOnly value={link.url} size={40} onFocus={(e) => e.currentTarget.select()} />{' '}
          <button
            type="button"
            onClick={async () => {
              await navigator.clipboard?.writeText(link.url).catch(() => undefined);
              setCopied(true);
            }}
          >
            {copied ? 'Copied' : 'Copy link'}
          </button>
        </p>
      )}
    </div>
  );
}

/**
 * The merchant's switch for card-update emails (GET/PUT /v1/subscription/settings/card-update-emails): when on,
 * a customer whose renewal needs a new card, or whose card expires, is emailed a card-update link.
 */
export function CardUpdateEmailsSwitch() {
  const { api, membership } = useWorkspace();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['card-update-emails', membership.merchantCode];
  const setting = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/v1/subscription/settings/card-update-emails', {})),
  });
  const [error, setError] = useState<string>();
  if (!setting.data) return null;
  const toggle = async (enabled: boolean) => {
    setError(undefined);
    try {
      await unwrap(api.PUT('/v1/subscription/settings/card-update-emails', { body: { enabled } }));
      await queries.invalidateQueries({ queryKey: key });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <p className="card-update-emails">
      <label>
        <input
          type="checkbox"
          checked={setting.data.enabled}
          disabled={!can('manage')}
          onChange={(e) => void toggle(e.currentTarget.checked)}
        />{' '}
        Email customers a card-update link when a renewal needs a new card or their card expires
      </label>
      {error && (
        <span role="alert" className="error">
          {' '}
          {error}
        </span>
      )}
    </p>
  );
}
