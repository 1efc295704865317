import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useCan, useWorkspace } from '../context';
import { formatAmount, formatDate, newIdempotencyKey } from '../format';
import { unwrap } from '../session';
import { ConfirmButton, Failure, Loading, Status } from '../ui';

export function LinksPage() {
  const { api, membership, environment } = useWorkspace();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['links', membership.merchantCode, environment];
  const links = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/v1/payment-link', { params: { query: { limit: 50 } } })),
  });
  const [error, setError] = useState<string>();
  const [copied, setCopied] = useState<string>();
  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const element = e.currentTarget;
    const form = new FormData(element);
    const exponent = 2;
    const value = Math.round(Number(form.get('amount')) * 10 ** exponent);
    setError(undefined);
    const created = await api.POST('/v1/payment-link', {
      headers: { 'idempotency-key': newIdempotencyKey() },
      body: {
        title: String(form.get('title')),
        amount: { value, currency: String(form.get('currency')).toUpperCase(), exponent },
      } as never,
    });
    if (created.error)
      return setError((created.error as { error?: { message?: string } }).error?.message ?? 'Creating the link failed');
    element.reset();
    await queries.invalidateQueries({ queryKey: key });
  };
  return (
    <section>
      <h1>Payment links</h1>
      {can('manage') && (
        <form className="filters" onSubmit={create} aria-label="New payment link">
          <label>
            Title <input name="title" required maxLength={255} />
          </label>
          <label>
            Amount <input name="amount" inputMode="decimal" required pattern="[0-9]+(\.[0-9]{1,2})?" />
          </label>
          <label>
            Currency <input name="currency" required defaultValue="EUR" maxLength={3} size={4} />
          </label>
          <button type="submit" className="primary">
            Create link
          </button>
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
        </form>
      )}
      {links.isPending ? (
        <Loading what="links" />
      ) : links.isError ? (
        <Failure error={links.error} />
      ) : (
        <div className="table-wrap">
          <table aria-label="Payment links">
            <thead>
              <tr>
                <th>Title</th>
                <th>Amount</th>
                <th>Status</th>
                <th>Uses</th>
                <th>Created</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {links.data.map((l) => (
                <tr key={l.id}>
                  <td>{l.title ?? l.id}</td>
                  <td>
                    {l.amount?.value === undefined
                      ? 'payer chooses'
                      : formatAmount({ ...l.amount, value: l.amount.value })}
                  </td>
                  <td>
                    <Status value={l.status} />
                  </td>
                  <td>
                    {l.usesCount}
                    {l.maxUses ? ` / ${l.maxUses}` : ''}
                  </td>
                  <td>{formatDate(l.createdAt)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      aria-label={`Copy the URL of ${l.title ?? l.id}`}
                      onClick={async () => {
                        await navigator.clipboard?.writeText(l.url).catch(() => undefined);
                        setCopied(l.url);
                      }}
                    >
                      Copy URL
                    </button>
                    {can('manage') && l.status === 'active' && (
                      <ConfirmButton
                        label="Cancel link"
                        danger
                        confirmText="Cancel this link? Payers can no longer use it."
                        onConfirm={async () => {
                          await unwrap(
                            api.POST('/v1/payment-link/{id}/cancel', {
                              params: { path: { id: l.id } },
                              headers: { 'idempotency-key': newIdempotencyKey() },
                              body: {},
                            }),
                          );
                          await queries.invalidateQueries({ queryKey: key });
                        }}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {copied && (
        <p role="status">
          Copied: <code>{copied}</code>
        </p>
      )}
    </section>
  );
}
