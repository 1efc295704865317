import type { ProviderAction } from '../connector/provider-connector';
import { EntityManager } from 'typeorm';
import { ActionRequiredView, AmountDto, CallerContext } from '@app/contracts';

/** A payment the acquirer sent to 3-D Secure (connector outcome `challenge_required`). */
export interface ThreeDsChallengeRequest {
  ctx: CallerContext;
  paymentId: string;
  /** `purchase` captures on a successful resume, `authorization` holds. */
  intent: 'purchase' | 'authorization';
  connectionCode: string;
  /** The acquirer's handle of the pending authorization; `Connector.completeChallenge` takes it back. */
  acquirerReference: string;
  amount: AmountDto;
  /** e.g. 400000****3155, for the challenge page. */
  maskedCard: string;
  now: Date;
  /** With tracing on, the traceparent of the request that created the payment (the 3DS expiry run links to it). */
  traceParent?: string | null;
  /** The session id the provider's return URL already names (chosen before the authorization was sent). */
  sessionId?: string;
  /** The provider's own challenge: the hosted page sends the shopper there instead of simulating one. */
  providerAction?: ProviderAction;
}

/**
 * Opens the 3DS challenge of a `pending_3ds` payment. The purchase flow calls `begin` inside its transaction,
 * after the payment row is inserted, and stores the answer as the payment's `actionRequired` (undefined
 * leaves the payment pending without one).
 */
export interface ThreeDsPort {
  begin(manager: EntityManager, request: ThreeDsChallengeRequest): Promise<ActionRequiredView | undefined>;
}

export const THREE_DS_PORT = Symbol('THREE_DS_PORT');

/**
 * Added by the 3DS module: a challenged payment that asked for `tokenize: true` stores its card only if the
 * resume approves, so the port keeps the card (sealed, without CVV) until then.
 */
export interface ThreeDsTokenizeRequest {
  card: import('../card/instrument').ResolvedCard;
  shopperId: string;
}

/** (Declaration merge, 3DS module.) The card to vault on an approved resume, when the purchase tokenizes. */
export interface ThreeDsChallengeRequest {
  tokenize?: ThreeDsTokenizeRequest;
}
