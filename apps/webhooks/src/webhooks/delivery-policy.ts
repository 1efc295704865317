import type { DeliveryError } from './delivery-error';
import { ATTEMPT_MACHINE, AttemptEnd, DELIVERY_MACHINE } from './delivery-state';
import { AttemptStatus, DeliveryStatus } from './webhook-delivery.entity';

/** How one try ended, as the sender saw it. */
export interface SendOutcome {
  ok: boolean;
  responseStatus: number | null;
  /** The start of the receiver's answer (RESPONSE_EXCERPT_BYTES at most), as text; null without one. */
  responseExcerpt: string | null;
  durationMs: number;
  /** Why it failed, as the delivery log keeps it (delivery-error.ts); null when it succeeded. */
  error: DeliveryError | null;
  /** For the service's own log only: the error code (`ECONNREFUSED`, …), never stored or shown to the merchant. */
  detail?: string;
  /** No retry can help (the URL is not https, the endpoint is gone). */
  permanent: boolean;
}

/** A try that got no answer: refused before sending, failed on the way, or not made at all. */
export function unanswered(durationMs: number, error: DeliveryError, permanent: boolean, detail?: string): SendOutcome {
  return { ok: false, responseStatus: null, responseExcerpt: null, durationMs, error, permanent, detail };
}

export interface AttemptDecision {
  attempt: AttemptStatus;
  delivery: DeliveryStatus;
  /** Seconds until the next try, when there is one. */
  retryInSeconds: number | null;
}

/**
 * What a try's outcome does: a 2xx succeeds; a failed try n is followed by try n+1 after schedule[n-1]
 * seconds; a permanent failure, or one once the schedule is used up, gives up. The attempt and the delivery
 * move through their tables (delivery-state.ts).
 */
export function decideAttempt(outcome: SendOutcome, attempt: number, schedule: readonly number[]): AttemptDecision {
  const delay = schedule[attempt - 1];
  const end: AttemptEnd = outcome.ok ? 'succeed' : outcome.permanent || delay === undefined ? 'give_up' : 'retry';
  return {
    attempt: ATTEMPT_MACHINE.transition('pending', end).to,
    delivery: DELIVERY_MACHINE.transition('pending', end).to,
    retryInSeconds: end === 'retry' ? delay : null,
  };
}
