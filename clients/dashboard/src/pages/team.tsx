import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useCan, useWorkspace } from '../context';
import { formatDate } from '../format';
import { sessionApi, SessionError, type Role } from '../session';
import { ConfirmButton, Failure, Loading } from '../ui';

const ROLES: Role[] = ['owner', 'developer', 'support'];
const MAIL: Record<string, string> = {
  sent: 'The invitation is on its way by email.',
  failed: 'The invitation email could not be sent: remove the person and invite again later.',
  off: 'Email is off on this platform: ask the operator for the invitation link.',
  not_needed: 'They had an account already and can sign in now.',
};

export function TeamPage() {
  const { session, membership } = useWorkspace();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['team', membership.merchantCode];
  const team = useQuery({ queryKey: key, queryFn: () => sessionApi.team(membership.merchantCode) });
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const owner = can('team');
  /** Runs a change; its notice (`done`, or what the change answers) shows once the list shows it too. */
  const act = async (work: () => Promise<unknown>, done?: string) => {
    setError(undefined);
    setNotice(undefined);
    try {
      const said = await work();
      await queries.invalidateQueries({ queryKey: key });
      setNotice(typeof said === 'string' ? said : done);
    } catch (err) {
      setError(err instanceof SessionError ? err.message : 'The change failed');
    }
  };
  const invite = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const role = ROLES.find((r) => r === data.get('role')) ?? 'support';
    await act(async () => {
      const made = await sessionApi.invite(session, {
        merchantCode: membership.merchantCode,
        email: String(data.get('email')),
        role,
      });
      form.reset();
      return `${made.email} added as ${made.role}. ${MAIL[made.mail]}`;
    });
  };
  return (
    <section>
      <h1>Team</h1>
      {owner && (
        <form className="filters" onSubmit={invite} aria-label="Invite someone">
          <label>
            Email <input name="email" type="email" required maxLength={255} />
          </label>
          <label>
            Role{' '}
            <select name="role" defaultValue="support">
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="primary">
            Invite
          </button>
        </form>
      )}
      {notice && <p role="status">{notice}</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {team.isPending ? (
        <Loading what="the team" />
      ) : team.isError ? (
        <Failure error={team.error} />
      ) : (
        <div className="table-wrap">
          <table aria-label="Team">
            <thead>
              <tr>
                <th>Email</th>
                <th>Role</th>
                <th>Status</th>
                <th>Since</th>
                {owner && <th>Actions</th>}
              </tr>
            </thead>
            <tbody>
              {team.data.map((m) => (
                <tr key={m.id}>
                  <td>{m.email}</td>
                  <td>
                    {owner ? (
                      <select
                        aria-label={`Role of ${m.email}`}
                        value={m.role}
                        onChange={(e) =>
                          act(
                            () => sessionApi.changeRole(session, m.id, membership.merchantCode, e.target.value as Role),
                            `${m.email} is now ${e.target.value}.`,
                          )
                        }
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td>{m.passwordSet ? (m.totpEnabled ? 'active, two-factor on' : 'active') : 'invited'}</td>
                  <td>{formatDate(m.createdAt)}</td>
                  {owner && (
                    <td>
                      <ConfirmButton
                        label={`Remove ${m.email}`}
                        danger
                        confirmText={`Remove ${m.email} from ${membership.merchantName}? Their access ends at once.`}
                        onConfirm={() =>
                          act(
                            () => sessionApi.removeMember(session, m.id, membership.merchantCode),
                            `${m.email} removed.`,
                          )
                        }
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
