import { formatDate } from '../format';

interface DunningView {
  policyVersion: number;
  lastRefusal?: { reasonCode: string; reason: string; recoveryAction: string } | null;
  lastConnectionCode?: string | null;
  waitingFor: 'scheduled_retry' | 'payment_method';
  nextAttemptAt?: string | null;
}

const WAITS: Record<DunningView['waitingFor'], string> = {
  scheduled_retry: 'the next scheduled retry',
  payment_method: 'a new payment method (the card on file is not charged again)',
};

/**
 * Where a subscription's dunning stands, from the API's `dunning` (set while past_due): the last decline with
 * its code, reason and connection, what the run waits for, the next attempt and the recovery policy version.
 */
export function DunningFacts({
  s,
}: {
  s: { status: string; dunningAttemptCount: number; suspendedAt?: string | null; dunning?: DunningView | null };
}) {
  if (s.status === 'suspended') {
    return <>Suspended {formatDate(s.suspendedAt)}: retries ended; a new payment method reactivates it.</>;
  }
  const d = s.dunning;
  if (s.status !== 'past_due' || !d) return <>Not in dunning</>;
  return (
    <dl className="facts" aria-label="Dunning">
      <dt>Last decline</dt>
      <dd>
        {d.lastRefusal
          ? `${d.lastRefusal.reasonCode} ${d.lastRefusal.reason} (${d.lastRefusal.recoveryAction.replace(/_/g, ' ')})`
          : 'failed without a refusal code'}
        {d.lastConnectionCode ? ` on connection ${d.lastConnectionCode}` : ''}
      </dd>
      <dt>Waiting for</dt>
      <dd>{WAITS[d.waitingFor]}</dd>
      <dt>Next attempt</dt>
      <dd>{d.nextAttemptAt ? formatDate(d.nextAttemptAt) : 'none scheduled'}</dd>
      <dt>Retries so far</dt>
      <dd>{s.dunningAttemptCount}</dd>
      <dt>Policy version</dt>
      <dd>{d.policyVersion}</dd>
    </dl>
  );
}
