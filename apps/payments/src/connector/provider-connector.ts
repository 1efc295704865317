import type { CardOnFileInitiator, Environment, PaymentMethod, RefusalCodeDto } from '@app/contracts';
import type { AmountJson } from '@app/money';
import type { ResolvedCard } from '../card/instrument';

/**
 * The one contract every acquirer connector implements (the sandbox simulator, Adyen, Stripe, …). A connector
 * is stateless: everything it needs for a call (credentials, endpoint, environment) comes in the
 * `ConnectorConnection` of that call, so one instance serves every merchant's connections of its acquirer.
 * Adding a connector is one folder implementing this interface plus a test double for the conformance suite.
 */

/** Secrets of one connection, decrypted only for the call. Never log, never return through any API. */
export interface ConnectionCredentials {
  /** Adyen: X-API-Key. Stripe: the secret key (sk_test_…, sk_live_…). */
  apiKey?: string;
  /** Adyen: the merchant account the payments are made under. */
  merchantAccount?: string;
  /** Adyen: the HMAC key of the standard webhook (hex). */
  hmacKey?: string;
  /** Stripe: the endpoint's signing secret (whsec_…). */
  webhookSecret?: string;
}

/** The routing connection a call goes through, as the connector needs it. */
export interface ConnectorConnection {
  connectionCode: string;
  merchantCode: string;
  environment: Environment;
  credentials: ConnectionCredentials;
  /**
   * Where the provider's API answers. Undefined: the provider's own test endpoint for a sandbox connection,
   * its live endpoint for a production one. Set: an explicit origin (Adyen's regional live prefix URL, a local
   * test double in tests), e.g. `https://127.0.0.1:4555`.
   */
  endpoint?: string;
}

/** How the shopper's browser is sent to authenticate (3DS) or to pay (redirect APMs) at the provider. */
export interface ProviderAction {
  /** `redirect`: open `url` with `method` (POST forms carry `data`). */
  type: 'redirect';
  url: string;
  method: 'GET' | 'POST';
  data?: Record<string, string>;
}

/** What the card's authentication (3DS) was, when the provider says. */
export interface ThreeDsResult {
  /** `frictionless`: authenticated without a challenge; `challenge`: after one; `attempted`: not authenticated. */
  flow: 'frictionless' | 'challenge' | 'attempted';
  eci?: string;
  version?: string;
}

/** Fields of an approval a merchant may need, as the provider returned them. */
export interface ApprovalDetails {
  acquirerReference: string;
  authorizationCode: string;
  /** Scheme transaction id: cited on later merchant-initiated charges on the same stored card. */
  networkTransactionId: string;
  networkReferenceId: string;
  threeDs?: ThreeDsResult;
}

/** What an acquirer answered to an authorization (or to the completion of its 3DS). */
export type AuthorizationOutcome =
  | ({ kind: 'approved' } & ApprovalDetails)
  | { kind: 'declined'; acquirerReference: string; refusalCode: RefusalCodeDto }
  | { kind: 'failed'; acquirerReference: string | null; message: string }
  /** 3DS: our payment becomes `pending_3ds`; `action` is absent for the simulator (our own hosted page). */
  | { kind: 'challenge_required'; acquirerReference: string; action?: ProviderAction }
  /** APMs: settled later by the provider's webhook. */
  | { kind: 'pending_action'; acquirerReference: string; action?: ProviderAction };

export interface AuthorizationRequest {
  paymentId: string;
  /**
   * Our reservation's key for this attempt: the same for every retry of the same merchant request, on every
   * replica and after a restart. Forwarded as the provider's `Idempotency-Key`, and as its merchant reference.
   */
  reference: string;
  amount: AmountJson;
  /** A purchase authorizes and captures at once; an authorization waits for `capture`. */
  capture: boolean;
  paymentMethod: PaymentMethod;
  /** Absent for APMs. Holds the PAN: never log it. */
  card?: ResolvedCard;
  /** `merchant` for merchant-initiated charges (renewals, retries) on a stored credential. */
  initiator: CardOnFileInitiator;
  /** Network transaction id of the original cardholder-initiated payment, cited on merchant-initiated ones. */
  networkTransactionId?: string;
  /** The provider's stored-payment-method id of a card stored at the provider, if it has one. */
  providerPaymentMethodId?: string;
  /** Where the provider sends the shopper back after a redirect (3DS, APM): the gateway's return page. */
  returnUrl?: string;
  shopperReference?: string;
  shopperEmail?: string;
  /** When the charge is made, by the injected clock (a merchant's sandbox clock): the simulator declines a card past its expiry. */
  at: Date;
}

export interface ChallengeCompletion {
  /** The request reference of this resume (one per 3DS session), forwarded as the `Idempotency-Key`. */
  reference: string;
  acquirerReference: string;
  /** Simulator: whether the cardholder passed our hosted challenge. */
  authenticated: boolean;
  /** Providers: what came back on the return URL (Adyen `redirectResult`, Stripe `payment_intent`, …). */
  details?: Record<string, string>;
  capture: boolean;
  amount: AmountJson;
}

/** Capture, refund or cancel of an earlier authorization; partial amounts where the provider allows. */
export interface ModificationRequest {
  paymentId: string;
  /** Our reservation's key for this operation, forwarded as the `Idempotency-Key`. */
  reference: string;
  /** The provider's reference of the payment (Adyen pspReference, Stripe PaymentIntent id). */
  acquirerReference: string;
  amount: AmountJson;
  /** Refunds: the merchant's reason, passed on where the provider takes one. */
  reason?: string;
}

export type ModificationOutcome =
  /** Done now. */
  | { kind: 'succeeded'; providerReference?: string }
  /** Accepted; the provider reports the result later by webhook (Adyen captures, refunds and cancels). */
  | { kind: 'pending'; providerReference: string }
  | { kind: 'failed'; providerReference?: string; message: string };

/** What the provider says a payment is now (status sync). */
export type SyncedStatus =
  | { kind: 'authorized' | 'captured' | 'cancelled' | 'refunded' }
  | Exclude<AuthorizationOutcome, { kind: 'approved' }>
  | ({ kind: 'approved' } & ApprovalDetails);

/** One event of a provider's inbound webhook, in our terms. */
export interface ProviderNotification {
  /** The provider's id of this event, for de-duplication (Adyen: eventCode + pspReference + success; Stripe: evt_…). */
  eventId: string;
  kind:
    | 'authorisation'
    | 'capture'
    | 'capture_failed'
    | 'refund'
    | 'refund_failed'
    | 'cancellation'
    | 'chargeback'
    | 'chargeback_reversed'
    | 'other';
  success: boolean;
  /** The provider's reference of the payment the event is about. */
  acquirerReference: string;
  /** The provider's reference of the modification (capture, refund) the event is about, when it is one. */
  modificationReference?: string;
  /** Our reference (the `reference` we sent as the merchant reference), when the provider echoes it. */
  merchantReference?: string;
  amount?: AmountJson;
  /** Why it failed (refusals, failed captures and refunds), mapped. */
  refusalCode?: RefusalCodeDto;
  reason?: string;
  occurredAt: Date;
  /** The provider's own event name (AUTHORISATION, charge.refunded, …), for the logs. */
  providerEvent: string;
}

/** What to answer the provider's webhook call with once it is verified and stored. */
export interface WebhookAcknowledgement {
  status: number;
  contentType: string;
  body: string;
}

export interface ConnectorCapabilities {
  /** More than one (partial) capture of one authorization. */
  multipleCaptures: boolean;
  /** Whether `sync` can ask the provider for a payment's status (else webhooks settle unknown outcomes). */
  statusSync: boolean;
}

/**
 * The request may have reached the provider and its outcome is not known (a timeout, a 5xx, a connection that
 * dropped after the request was written). Never retried as a new charge: settled by webhook or status sync,
 * or by sending the same request again with the same Idempotency-Key.
 */
export class ConnectorOutcomeUnknown extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ConnectorOutcomeUnknown';
  }
}

/** The request certainly did not reach the provider (connection refused, DNS, TLS before sending): safe to retry. */
export class ConnectorNotSent extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ConnectorNotSent';
  }
}

/** An inbound webhook whose signature or shape does not verify: answered 401 and not applied. */
export class WebhookRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookRejected';
  }
}

export interface ProviderConnector {
  /** The `acquirer` value of the connections it serves. */
  readonly acquirer: string;
  readonly capabilities: ConnectorCapabilities;
  authorize(connection: ConnectorConnection, request: AuthorizationRequest): Promise<AuthorizationOutcome>;
  /** The final answer for a payment that was sent to 3DS (`challenge_required`). */
  completeChallenge(connection: ConnectorConnection, request: ChallengeCompletion): Promise<AuthorizationOutcome>;
  capture(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome>;
  refund(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome>;
  cancel(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome>;
  /**
   * What the provider says of a payment now, by its reference, or by our request reference when the provider
   * reference was never received (an unknown outcome). Undefined: the provider has no record of it (it never
   * acted) or cannot be asked (`capabilities.statusSync` false: wait for the webhook).
   */
  sync(
    connection: ConnectorConnection,
    ref: { acquirerReference?: string; reference: string },
  ): Promise<SyncedStatus | undefined>;
  /**
   * Verifies (signature, as the provider specifies) and parses one inbound webhook call. Throws WebhookRejected
   * when it does not verify. The caller de-duplicates on `eventId` and applies each notification.
   */
  parseWebhook(
    connection: ConnectorConnection,
    rawBody: Buffer,
    headers: Readonly<Record<string, string | undefined>>,
  ): ProviderNotification[];
  /** Adyen wants `[accepted]`; Stripe any 2xx. */
  readonly webhookAcknowledgement: WebhookAcknowledgement;
}
