import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
import Stripe from 'stripe';
import { providerAgent } from '../provider-agent';
import { ConnectorNotSent, ConnectorOutcomeUnknown, type ConnectorConnection } from '../provider-connector';

export interface StripeConnectorOptions {
  /** PEM of a CA to trust for a connection with an explicit `endpoint` (the local double in tests). */
  trustedCa?: string;
  /** How long one call may take before it is abandoned as an unknown outcome (ms). */
  timeoutMs?: number;
  /**
   * The HTTPS agent for calls to `url`: by default the process's provider agents (HTTPS_PROXY, NO_PROXY,
   * keep-alive), chosen per target URL. With `trustedCa` and no `agentFor`, a direct agent trusting that CA.
   */
  agentFor?: (url: URL) => Agent;
}

/** Stripe's API origin when a connection names no endpoint. */
const STRIPE_API = 'https://api.stripe.com';

/** A connection that cannot call Stripe as configured (no key, a key of the other mode): nothing was sent. */
export class StripeConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StripeConfigurationError';
  }
}

/** Node's errors of a connection that was never made: the request was certainly not sent. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
]);

/**
 * One Stripe client per connection and key (and endpoint), made on first use. The package's own retries are
 * off (`maxNetworkRetries: 0`): the platform decides what is retried, always with the same Idempotency-Key.
 * The package still re-sends a request once when a kept-alive connection turns out closed (ECONNRESET, EPIPE),
 * with the same Idempotency-Key, which Stripe answers with the saved answer.
 */
export class StripeClients {
  private readonly clients = new Map<string, Stripe>();
  private readonly agentFor: (url: URL) => Agent;

  constructor(private readonly options: StripeConnectorOptions) {
    const trusting = options.trustedCa ? new Agent({ ca: options.trustedCa, keepAlive: true }) : undefined;
    this.agentFor = options.agentFor ?? (trusting ? () => trusting : providerAgent);
  }

  for(connection: ConnectorConnection): Stripe {
    const apiKey = connection.credentials.apiKey;
    if (!apiKey) throw new StripeConfigurationError(`Stripe connection ${connection.connectionCode} has no API key`);
    // Stripe's test and live modes are chosen by the key, not the host: a key of the other mode is refused.
    const live = /^(sk|rk)_live_/.test(apiKey);
    if (live !== (connection.environment === 'production')) {
      throw new StripeConfigurationError(
        `Stripe connection ${connection.connectionCode}: a ${live ? 'live' : 'test'} key on a ${connection.environment} connection`,
      );
    }
    const keyHash = createHash('sha256').update(apiKey).digest('base64url');
    const id = `${connection.connectionCode}\u0000${keyHash}\u0000${connection.endpoint ?? ''}`;
    let client = this.clients.get(id);
    if (!client) {
      client = new Stripe(apiKey, {
        ...this.endpointOptions(connection.endpoint),
        maxNetworkRetries: 0,
        telemetry: false,
        timeout: this.options.timeoutMs ?? 30_000,
        appInfo: { name: 'payments-platform' },
      });
      this.clients.set(id, client);
    }
    return client;
  }

  private endpointOptions(endpoint: string | undefined): Partial<Stripe.StripeConfig> {
    const url = new URL(endpoint ?? STRIPE_API);
    if (!endpoint) return { httpAgent: this.agentFor(url) };
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    return {
      host: url.hostname,
      port: url.port || (protocol === 'http' ? 80 : 443),
      protocol,
      ...(protocol === 'https' ? { httpAgent: this.agentFor(url) } : {}),
    };
  }
}

/**
 * What a failed call means for the payment: sent-and-unknown (timeout, dropped connection, Stripe 5xx) or
 * certainly-not-sent (no connection, or a 429 that Stripe documents as not executed). Other errors (card
 * declines, invalid requests) are Stripe's answer and returned as they are for the caller to map.
 */
export function classifyStripeError(error: unknown): unknown {
  if (error instanceof Stripe.errors.StripeConnectionError) {
    const detail = error.detail as { code?: string } | undefined;
    if (detail?.code && NOT_CONNECTED.has(detail.code)) return new ConnectorNotSent(error.message, detail.code);
    return new ConnectorOutcomeUnknown(error.message, detail?.code);
  }
  if (error instanceof Stripe.errors.StripeRateLimitError) return new ConnectorNotSent(error.message, error.code);
  if (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500) {
    return new ConnectorOutcomeUnknown(error.message, error.requestId);
  }
  return error;
}
