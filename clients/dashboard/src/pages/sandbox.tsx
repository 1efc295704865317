import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan, useWorkspace } from '../context';
import { formatDate, newIdempotencyKey } from '../format';
import { unwrap } from '../session';
import { ConfirmButton, Failure, Loading } from '../ui';

export function SandboxPage() {
  const { api, membership } = useWorkspace();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['clock', membership.merchantCode];
  const clock = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/v1/sandbox/clock', {})) });
  const [by, setBy] = useState('P1D');
  return (
    <section>
      <h1>Sandbox clock</h1>
      {clock.isPending ? (
        <Loading what="the clock" />
      ) : clock.isError ? (
        <Failure error={clock.error} />
      ) : (
        <p>
          Sandbox time: <strong>{formatDate(clock.data.now)}</strong>
        </p>
      )}
      {can('manage') && (
        <div className="filters">
          <label>
            Advance by (ISO 8601 duration) <input value={by} onChange={(e) => setBy(e.target.value.trim())} />
          </label>
          <ConfirmButton
            label="Advance the clock"
            confirmText={`Move this merchant's sandbox time forward by ${by}? Renewals and expiries due meanwhile run.`}
            onConfirm={async () => {
              await unwrap(
                api.POST('/v1/sandbox/clock/advance', {
                  headers: { 'idempotency-key': newIdempotencyKey() },
                  body: { by },
                }),
              );
              await queries.invalidateQueries({ queryKey: key });
            }}
          />
        </div>
      )}
    </section>
  );
}
