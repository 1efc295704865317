import { Acquirer, CardOnFileInitiator, PaymentMethod, RefusalCodeDto } from '@app/contracts';
import { AmountJson } from '@app/money';
import { ResolvedCard } from '../purchase/instrument';
import type { ThreeDsResult } from './provider-connector';

/** What an acquirer answered to an authorization; mapped to a payment transition by `outcomeTrigger`. */
export type AcquirerOutcome =
  | {
      kind: 'approved';
      acquirerReference: string;
      authorizationCode: string;
      networkTransactionId: string;
      networkReferenceId: string;
      /** How 3DS authenticated the cardholder, when it did (the payment's `threeDSecure`). */
      threeDs?: ThreeDsResult;
    }
  | { kind: 'declined'; acquirerReference: string; refusalCode: RefusalCodeDto }
  | { kind: 'failed'; acquirerReference: string | null; message: string }
  | { kind: 'challenge_required'; acquirerReference: string }
  | { kind: 'pending_action'; acquirerReference: string };

export interface AuthorizeRequest {
  paymentId: string;
  /** The same for a retry of the same merchant request (`requestReference`): the acquirer de-duplicates on it. */
  reference: string;
  amount: AmountJson;
  /** A purchase authorizes and captures at once. */
  capture: boolean;
  paymentMethod: PaymentMethod;
  /** Absent for APMs. Holds the PAN: never log it. */
  card?: ResolvedCard;
  /** `merchant` for merchant-initiated charges (renewals, retries) on a stored credential. */
  initiator: CardOnFileInitiator;
  /** Network transaction id of the original cardholder-initiated payment, cited on merchant-initiated ones. */
  networkTransactionId?: string;
  /** The merchant's connection the call goes through (a sandbox test card may answer by connection). */
  connectionCode: string;
  /** When the charge is made, by the injected clock (the merchant's sandbox clock): a card past its expiry is declined. */
  at: Date;
}

export interface CompleteChallengeRequest {
  /** The request reference of this resume (one per 3DS session), as for an authorization. */
  reference: string;
  acquirerReference: string;
  /** Whether the cardholder passed the challenge. */
  authenticated: boolean;
  capture: boolean;
  amount: AmountJson;
}

/** Capture, refund or cancel of an earlier authorization. */
export interface ModificationRequest {
  paymentId: string;
  /** The same for a retry of the same merchant request (`requestReference`): the acquirer de-duplicates on it. */
  reference: string;
  acquirerReference: string | null;
  amount: AmountJson;
}

export type ModificationOutcome = { kind: 'succeeded' } | { kind: 'failed'; message: string };

/**
 * One acquirer adapter. The sandbox acquirer is the only one that ships; a real one implements the same
 * interface and maps its own statuses onto these outcomes.
 */
export interface Connector {
  readonly acquirer: Acquirer;
  authorize(request: AuthorizeRequest): Promise<AcquirerOutcome>;
  /** The final answer for a payment that was sent to 3DS (`challenge_required`). */
  completeChallenge(request: CompleteChallengeRequest): Promise<AcquirerOutcome>;
  capture(request: ModificationRequest): Promise<ModificationOutcome>;
  refund(request: ModificationRequest): Promise<ModificationOutcome>;
  cancel(request: ModificationRequest): Promise<ModificationOutcome>;
  /**
   * What the acquirer did for a request reference (`AuthorizeRequest.reference`, `ModificationRequest.reference`),
   * or undefined when it never acted on it: the recovery sweep asks after a crash lost the answer. A real
   * adapter asks the acquirer's transaction search by merchant reference.
   */
  lookup(reference: string): Promise<AcquirerOutcome | ModificationOutcome | undefined>;
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value ${JSON.stringify(value)}`);
}
