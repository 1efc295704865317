import type { Agent } from 'node:https';
import { CheckoutAPI, Client, EnvironmentEnum, Types } from '@adyen/api-library';
import {
  ConnectorNotSent,
  ConnectorOutcomeUnknown,
  type AuthorizationOutcome,
  type AuthorizationRequest,
  type ChallengeCompletion,
  type ConnectorCapabilities,
  type ConnectorConnection,
  type ModificationOutcome,
  type ModificationRequest,
  type ProviderConnector,
  type ProviderNotification,
  type SyncedStatus,
  type WebhookAcknowledgement,
} from '../provider-connector';
import { providerAgent } from '../provider-agent';
import { AdyenHttpClient, AdyenRequestRejected } from './adyen-http-client';
import { adyenAmount, authorizationOutcome, paymentRequest, UnexpectedResultCode } from './adyen-payments';
import { ADYEN_ACKNOWLEDGEMENT, parseAdyenWebhook } from './adyen-webhooks';

export interface AdyenConnectorOptions {
  /** A CA certificate (PEM) to trust besides the system's: a test double's. */
  trustedCa?: string;
  /**
   * The HTTPS agent for a call to `url`: by default the process's provider agents (HTTPS_PROXY, NO_PROXY,
   * keep-alive), chosen per target URL.
   */
  agentFor?: (url: URL) => Agent;
  /** How long to wait for Adyen's answer once a request is sent (default 30 s). */
  timeoutMs?: number;
  /**
   * Where the shopper comes back after Adyen's 3DS page when the request names no return URL (the API requires
   * one on every /payments call; merchant-initiated charges are never redirected).
   */
  defaultReturnUrl?: string;
}

/** Adyen's live Checkout URL, `https://{prefix}-checkout-live.adyenpayments.com/checkout`: its prefix. */
const LIVE_CHECKOUT = /^https:\/\/([a-z0-9-]+)-checkout-live\.adyenpayments\.com(\/checkout)?\/?$/i;

const REFUND_REASONS = new Set<string>(Object.values(Types.checkout.PaymentRefundRequest.MerchantRefundReasonEnum));

/**
 * Adyen through its official library (`@adyen/api-library` 31: Checkout API v71). Stateless: each call builds a
 * Client from its connection (API key, merchant account; TEST for sandbox, LIVE with the connection's live URL
 * prefix for production, or the connection's own endpoint). Our request reference is Adyen's Idempotency-Key
 * and the merchant reference. Captures, refunds and cancels are asynchronous at Adyen: `pending` until the
 * CAPTURE / REFUND / CANCELLATION webhook. Adyen's Checkout API has no payment lookup, so `sync` cannot ask.
 */
export class AdyenConnector implements ProviderConnector {
  readonly acquirer = 'adyen';
  readonly capabilities: ConnectorCapabilities = { multipleCaptures: true, statusSync: false };
  readonly webhookAcknowledgement: WebhookAcknowledgement = ADYEN_ACKNOWLEDGEMENT;

  constructor(private readonly options: AdyenConnectorOptions = {}) {}

  async authorize(connection: ConnectorConnection, request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    const { api, merchantAccount } = this.checkout(connection);
    const returnUrl = request.returnUrl ?? this.options.defaultReturnUrl ?? 'https://localhost/adyen/return';
    const body = paymentRequest(merchantAccount, request, returnUrl);
    return this.settle(() => api.PaymentsApi.payments(body, { idempotencyKey: request.reference }), false);
  }

  async completeChallenge(
    connection: ConnectorConnection,
    request: ChallengeCompletion,
  ): Promise<AuthorizationOutcome> {
    const redirectResult = request.details?.redirectResult;
    if (!redirectResult) {
      return {
        kind: 'failed',
        acquirerReference: request.acquirerReference || null,
        message: 'The return URL carried no redirectResult',
      };
    }
    const { api } = this.checkout(connection);
    return this.settle(
      () => api.PaymentsApi.paymentsDetails({ details: { redirectResult } }, { idempotencyKey: request.reference }),
      true,
    );
  }

  capture(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    const { api, merchantAccount } = this.checkout(connection);
    return this.modify(() =>
      api.ModificationsApi.captureAuthorisedPayment(
        request.acquirerReference,
        { merchantAccount, amount: adyenAmount(request.amount), reference: request.reference },
        { idempotencyKey: request.reference },
      ),
    );
  }

  refund(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    const { api, merchantAccount } = this.checkout(connection);
    const reason = request.reason?.toUpperCase();
    return this.modify(() =>
      api.ModificationsApi.refundCapturedPayment(
        request.acquirerReference,
        {
          merchantAccount,
          amount: adyenAmount(request.amount),
          reference: request.reference,
          ...(reason && REFUND_REASONS.has(reason)
            ? { merchantRefundReason: reason as Types.checkout.PaymentRefundRequest.MerchantRefundReasonEnum }
            : {}),
        },
        { idempotencyKey: request.reference },
      ),
    );
  }

  cancel(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    const { api, merchantAccount } = this.checkout(connection);
    return this.modify(() =>
      api.ModificationsApi.cancelAuthorisedPaymentByPspReference(
        request.acquirerReference,
        { merchantAccount, reference: request.reference },
        { idempotencyKey: request.reference },
      ),
    );
  }

  /** Adyen's Checkout API has no payment lookup: the AUTHORISATION webhook settles an unknown outcome. */
  sync(): Promise<SyncedStatus | undefined> {
    return Promise.resolve(undefined);
  }

  parseWebhook(connection: ConnectorConnection, rawBody: Buffer): ProviderNotification[] {
    return parseAdyenWebhook(connection, rawBody);
  }

  private async settle(
    call: () => Promise<Types.checkout.PaymentResponse | Types.checkout.PaymentDetailsResponse>,
    afterChallenge: boolean,
  ): Promise<AuthorizationOutcome> {
    try {
      return authorizationOutcome(await call(), afterChallenge);
    } catch (error) {
      if (error instanceof AdyenRequestRejected) {
        return { kind: 'failed', acquirerReference: null, message: error.message };
      }
      if (error instanceof UnexpectedResultCode) throw new ConnectorOutcomeUnknown(error.message, error);
      throw error;
    }
  }

  private async modify(call: () => Promise<{ pspReference: string; status: string }>): Promise<ModificationOutcome> {
    try {
      const answer = await call();
      if (answer.status !== 'received' || !answer.pspReference) {
        throw new ConnectorOutcomeUnknown(`Adyen answered status ${answer.status}`);
      }
      return { kind: 'pending', providerReference: answer.pspReference };
    } catch (error) {
      if (error instanceof AdyenRequestRejected) return { kind: 'failed', message: error.message };
      throw error;
    }
  }

  private checkout(connection: ConnectorConnection): { api: CheckoutAPI; merchantAccount: string } {
    const { apiKey, merchantAccount } = connection.credentials;
    if (!apiKey || !merchantAccount) {
      throw new ConnectorNotSent(`Connection ${connection.connectionCode} has no Adyen API key or merchant account`);
    }
    const target = adyenTarget(connection);
    const client = new Client(
      {
        apiKey,
        environment: target.environment,
        ...(target.liveEndpointUrlPrefix ? { liveEndpointUrlPrefix: target.liveEndpointUrlPrefix } : {}),
      },
      new AdyenHttpClient({
        origin: target.origin,
        trustedCa: this.options.trustedCa,
        agentFor: this.options.agentFor ?? providerAgent,
        timeoutMs: this.options.timeoutMs ?? 30_000,
      }),
    );
    return { api: new CheckoutAPI(client), merchantAccount };
  }
}

/**
 * Where a connection's calls go: Adyen's test endpoint for a sandbox connection without one; the library's LIVE
 * URL with the connection's live prefix for `https://{prefix}-checkout-live.adyenpayments.com/checkout`; any other
 * endpoint as an origin that replaces the library's. A production connection must name its live endpoint, and a
 * sandbox connection cannot name a live one.
 */
export function adyenTarget(connection: ConnectorConnection): {
  environment: EnvironmentEnum;
  liveEndpointUrlPrefix?: string;
  origin?: string;
} {
  const live = connection.endpoint?.match(LIVE_CHECKOUT);
  if (connection.environment === 'production' && !connection.endpoint) {
    throw new ConnectorNotSent(
      `Connection ${connection.connectionCode}: a production Adyen connection needs its live endpoint ` +
        '(https://{prefix}-checkout-live.adyenpayments.com/checkout)',
    );
  }
  if (live && connection.environment !== 'production') {
    throw new ConnectorNotSent(
      `Connection ${connection.connectionCode}: a sandbox connection cannot use a live endpoint`,
    );
  }
  if (live) return { environment: EnvironmentEnum.LIVE, liveEndpointUrlPrefix: live[1] };
  return { environment: EnvironmentEnum.TEST, ...(connection.endpoint ? { origin: connection.endpoint } : {}) };
}
