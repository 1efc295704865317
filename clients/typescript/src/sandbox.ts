import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/api';
import { unwrap } from './errors';

type Schemas = components['schemas'];
type MerchantCode = { merchantCode?: string };

/**
 * The sandbox tools, as a merchant's tests drive them with a sandbox key (a production key gets a
 * {@link PaymentsApiError} 403 `AUTH_INSUFFICIENT_SCOPE`). Each answers the data or throws, like `unwrap()`.
 * `merchantCode` is needed only with a key of several merchants.
 */
export interface SandboxTools {
  /**
   * The shopper's part of a 3DS challenge: records `authenticated` or `failed` for the session
   * (`payment.actionRequired.sessionId`); then `POST /v1/payment/resume` answers the final payment.
   */
  completeChallenge(
    sessionId: string,
    body: Schemas['SandboxChallengeRequest'],
  ): Promise<Schemas['ChallengeOutcomeResponse']>;
  /** Settles a `pending_action` APM payment now: `paid` → captured, `failed` → failed, `expired` → cancelled. */
  settle(paymentId: string, body: Schemas['SettleRequest']): Promise<Schemas['PaymentResponse']>;
  /**
   * Moves the merchant's sandbox clock forward, `{ by: 'P1M' }` or `{ to: '2026-03-01T00:00:00Z' }`, and runs
   * the time-driven work that falls due on the way (hold and 3DS session expiries, renewals) before answering.
   */
  advanceClock(body: Schemas['AdvanceClockRequest']): Promise<Schemas['SandboxClockResponse']>;
  /** The merchant's sandbox clock: real time until it is first advanced. */
  clock(query?: MerchantCode): Promise<Schemas['SandboxClockResponse']>;
}

export function sandboxTools(client: Client<paths>): SandboxTools {
  return {
    completeChallenge: (sessionId, body) =>
      unwrap(client.POST('/v1/sandbox/3ds/{sessionId}', { params: { path: { sessionId } }, body })),
    settle: (paymentId, body) =>
      unwrap(client.POST('/v1/sandbox/payment/{id}/settle', { params: { path: { id: paymentId } }, body })),
    advanceClock: (body) => unwrap(client.POST('/v1/sandbox/clock/advance', { body })),
    clock: (query) => unwrap(client.GET('/v1/sandbox/clock', { params: { query } })),
  };
}
