import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useCan, useWorkspace } from '../context';
import { formatDate } from '../format';
import { sessionApi, SessionError } from '../session';
import { ConfirmButton, Failure, Loading } from '../ui';

export function KeysPage() {
  const { session, membership, environment } = useWorkspace();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['keys', membership.merchantCode, environment];
  const keys = useQuery({
    queryKey: key,
    queryFn: () => sessionApi.keys(session, membership.merchantCode, environment),
    enabled: can('keys'),
  });
  const [created, setCreated] = useState<string>();
  const [error, setError] = useState<string>();
  if (!can('keys')) return <p>Only the merchant’s owners manage API keys.</p>;
  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    setError(undefined);
    try {
      const made = await sessionApi.createKey(session, {
        name: String(data.get('name')),
        type: data.get('type') === 'public' ? 'public' : 'private',
        environment,
        merchantCode: membership.merchantCode,
      });
      setCreated(made.key);
      form.reset();
      await queries.invalidateQueries({ queryKey: key });
    } catch (err) {
      setError(err instanceof SessionError ? err.message : 'Creating the key failed');
    }
  };
  return (
    <section>
      <h1>API keys ({environment})</h1>
      <form className="filters" onSubmit={create} aria-label="New API key">
        <label>
          Name <input name="name" required maxLength={100} />
        </label>
        <label>
          Type{' '}
          <select name="type" defaultValue="private">
            <option value="private">private</option>
            <option value="public">public</option>
          </select>
        </label>
        <button type="submit" className="primary">
          Create key
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {created && (
        <p role="status" className="once">
          The new key, shown this once: <code>{created}</code>
        </p>
      )}
      {keys.isPending ? (
        <Loading what="keys" />
      ) : keys.isError ? (
        <Failure error={keys.error} />
      ) : (
        <div className="table-wrap">
          <table aria-label="API keys">
            <thead>
              <tr>
                <th>Name</th>
                <th>Type</th>
                <th>Key</th>
                <th>Created</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <td>{k.name ?? <span className="sub">(no name)</span>}</td>
                  <td>{k.type}</td>
                  <td>
                    <code>{k.prefix.endsWith('…') ? k.prefix : `${k.prefix}…`}</code>
                  </td>
                  <td>{formatDate(k.createdAt)}</td>
                  <td>
                    {k.revokedAt ? (
                      `revoked ${formatDate(k.revokedAt)}`
                    ) : (
                      <ConfirmButton
                        label={`Revoke ${k.name ?? k.prefix.replace(/…$/, '')}`}
                        danger
                        confirmText="Revoke this key? Calls made with it are refused at once."
                        onConfirm={async () => {
                          await sessionApi.revokeKey(session, k.id);
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
    </section>
  );
}
