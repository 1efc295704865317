import type {
  ConnectorConnection,
  ProviderConnector,
  ProviderNotification,
} from '../../../apps/payments/src/connector/provider-connector';
import type { Environment } from '@app/contracts';

/**
 * A local stand-in for one provider, bound to the provider's published document: it rejects (and records as a
 * violation) every request the document rejects, and checks every answer and notification it sends against
 * the same document. The conformance suite (test/payments/connectors/) runs the same scenarios through every
 * connector with its double; each double answers by card number as the sandbox test cards do (docs/testing.md):
 *
 * - 4111111111111111 approved; 4000000000000002 declined `5` retry; 4000000000009995 declined `51`
 * - 4000003220000000 approved after frictionless 3DS; 4000002500003155 challenge required
 * - any other Luhn-valid number: approved
 */
export interface ConnectorDouble {
  /** The connections' `acquirer` value this double stands in for. */
  readonly acquirer: string;
  /** Whether the provider sends a notification of this kind at all (Stripe has no capture-failure event). */
  sends(kind: ProviderNotification['kind']): boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A connection whose endpoint is this double, with credentials it accepts (and signs webhooks with). */
  connection(environment: Environment, connectionCode?: string): ConnectorConnection;
  /** The connector under test, configured to reach this double (trusting its certificate). */
  connector(): ProviderConnector;
  /**
   * Plays the shopper at the provider's 3DS page for a `challenge_required` payment, and answers what the
   * return URL would carry (the `details` of ChallengeCompletion).
   */
  passChallenge(acquirerReference: string, authenticated: boolean): Promise<Record<string, string>>;
  /** The next authorization is taken (the card charged), then the answer never arrives (the socket hangs up). */
  dropAnswerAfterNextCharge(): void;
  /** Authorizations the double took, by our reference: a second charge for one reference is a test failure. */
  chargesFor(reference: string): number;
  /** A signed inbound webhook, exactly as the provider would POST it, about a payment the double knows. */
  webhook(
    kind: ProviderNotification['kind'],
    acquirerReference: string,
    options?: { success?: boolean; amountValue?: number; modificationReference?: string },
  ): { rawBody: Buffer; headers: Record<string, string> };
  /** Requests or answers that did not match the provider's document (must be empty at the end of a test). */
  violations(): string[];
}
