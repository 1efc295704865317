import { defineMachine } from '@app/state-machine';

/**
 * A 3DS session: `pending` until the cardholder finishes the challenge (`authenticated` | `failed`), then
 * `consumed` by the one resume it allows, or `expired`.
 */
export type ThreeDsSessionStatus = 'pending' | 'authenticated' | 'failed' | 'consumed' | 'expired';
/** An APM session: `open` until its payment is settled, then as that payment ended. */
export type ApmSessionStatus = 'open' | 'captured' | 'failed' | 'cancelled';
/** The stored status of either kind of session (the row's `kind` says which table it moves through). */
export type SessionStatus = ThreeDsSessionStatus | ApmSessionStatus;

export type ThreeDsSessionMove =
  'authenticate' | 'fail_challenge' | 'consume' | 'reopen_authenticated' | 'reopen_failed' | 'expire';

/**
 * The moves of a 3DS session. Repeating the recorded answer changes nothing; a resume that never reached the
 * acquirer gives the session back as the challenge left it; a session ends used up or expired.
 */
export const THREEDS_SESSION_MACHINE = defineMachine<ThreeDsSessionStatus, ThreeDsSessionMove>({
  name: '3DS session',
  states: ['pending', 'authenticated', 'failed', 'consumed', 'expired'],
  initial: 'pending',
  moves: {
    authenticate: { from: ['pending'], to: 'authenticated', verb: 'authenticate', ignoredIn: ['authenticated'] },
    fail_challenge: { from: ['pending'], to: 'failed', verb: 'fail the challenge of', ignoredIn: ['failed'] },
    consume: { from: ['authenticated', 'failed'], to: 'consumed', verb: 'resume with' },
    reopen_authenticated: { from: ['consumed'], to: 'authenticated', verb: 'reopen' },
    reopen_failed: { from: ['consumed'], to: 'failed', verb: 'reopen' },
    expire: { from: ['pending', 'authenticated', 'failed'], to: 'expired', verb: 'expire', ignoredIn: ['expired'] },
  },
  refusal: (verb, from) => `Cannot ${verb} a 3DS session that is ${from}`,
});

export type ApmSessionMove = 'capture' | 'fail' | 'cancel';

/** The moves of an APM session: its payment's settlement ends it, as captured, failed or cancelled. */
export const APM_SESSION_MACHINE = defineMachine<ApmSessionStatus, ApmSessionMove>({
  name: 'APM session',
  states: ['open', 'captured', 'failed', 'cancelled'],
  initial: 'open',
  moves: {
    capture: { from: ['open'], to: 'captured', verb: 'capture' },
    fail: { from: ['open'], to: 'failed', verb: 'fail' },
    cancel: { from: ['open'], to: 'cancelled', verb: 'cancel' },
  },
  refusal: (verb, from) => `Cannot ${verb} an APM session that is ${from}`,
});

/** Moves a 3DS session through its table (its status is written nowhere else). */
export function moveThreeDs(session: { kind: string; status: SessionStatus }, move: ThreeDsSessionMove): void {
  if (session.kind !== 'threeds') throw new Error(`A ${session.kind} session has no 3DS moves`);
  THREEDS_SESSION_MACHINE.apply(session as { status: ThreeDsSessionStatus }, move);
}

/** Moves an APM session through its table (its status is written nowhere else). */
export function moveApm(session: { kind: string; status: SessionStatus }, move: ApmSessionMove): void {
  if (session.kind !== 'apm') throw new Error(`A ${session.kind} session has no APM moves`);
  APM_SESSION_MACHINE.apply(session as { status: ApmSessionStatus }, move);
}
