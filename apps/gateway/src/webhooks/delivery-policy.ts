import { AttemptStatus, DeliveryStatus } from './webhook-delivery.entity';

/** How one try ended, as the sender saw it. */
export interface SendOutcome {
  ok: boolean;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  /** No retry can help (the URL is not https, the endpoint is gone). */
  permanent: boolean;
}

export interface AttemptDecision {
  attempt: AttemptStatus;
  delivery: DeliveryStatus;
  /** Seconds until the next try, when there is one. */
  retryInSeconds: number | null;
}

/**
 * The transition table of a delivery attempt: pending → succeeded | failed | dead, nothing after that. A failed
 * try n is followed by try n+1 after schedule[n-1] seconds; once the schedule is used up the try is dead.
 */
const ATTEMPT_TRANSITIONS: Readonly<Record<AttemptStatus, readonly AttemptStatus[]>> = {
  pending: ['succeeded', 'failed', 'dead'],
  succeeded: [],
  failed: [],
  dead: [],
};

/** The states an attempt may be in for it to move to `to`; the repository's UPDATE guards on them. */
export function statesBefore(to: AttemptStatus): AttemptStatus[] {
  return (Object.keys(ATTEMPT_TRANSITIONS) as AttemptStatus[]).filter((from) => ATTEMPT_TRANSITIONS[from].includes(to));
}

export function decideAttempt(outcome: SendOutcome, attempt: number, schedule: readonly number[]): AttemptDecision {
  if (outcome.ok) return { attempt: 'succeeded', delivery: 'succeeded', retryInSeconds: null };
  const delay = schedule[attempt - 1];
  if (outcome.permanent || delay === undefined) return { attempt: 'dead', delivery: 'dead', retryInSeconds: null };
  return { attempt: 'failed', delivery: 'pending', retryInSeconds: delay };
}
