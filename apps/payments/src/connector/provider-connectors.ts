import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { Clock } from '@app/clock';
import { AdyenConnector } from './adyen/adyen.connector';
import { ProviderAgents, proxySettingsOf } from './provider-agent';
import type { ProviderConnector } from './provider-connector';
import { StripeConnector } from './stripe/stripe.connector';

/** The part of the payments config the real connectors are built from. */
export interface ProviderConnectorsConfig {
  ACQUIRER_TIMEOUT_MS: number;
  PUBLIC_BASE_URL: string;
  HTTPS_PROXY?: string;
  NO_PROXY?: string;
  CONNECTOR_EXTRA_CA_FILE?: string;
}

/**
 * How long a connector waits for the provider's answer: below ACQUIRER_TIMEOUT_MS, so the connector gives up
 * first and says the outcome is unknown (ConnectorOutcomeUnknown) before the call's own deadline.
 */
export const connectorTimeoutMs = (acquirerTimeoutMs: number): number =>
  Math.max(1, acquirerTimeoutMs - Math.min(1_000, Math.ceil(acquirerTimeoutMs / 5)));

/** The process's provider agents: HTTPS_PROXY and NO_PROXY, plus CONNECTOR_EXTRA_CA_FILE's CAs besides the system's. */
export function providerAgentsOf(config: ProviderConnectorsConfig): ProviderAgents {
  const extra = config.CONNECTOR_EXTRA_CA_FILE?.trim();
  // One TLS context for every connection: a `ca` option would parse the ~150 CAs again on each new connection.
  const secureContext = extra
    ? createSecureContext({ ca: [...rootCertificates, readFileSync(extra, 'utf8')] })
    : undefined;
  return new ProviderAgents(proxySettingsOf(config), secureContext ? { secureContext } : {});
}

/** The real providers' connectors, always available: an `adyen` or `stripe` connection works once it is added. */
export function providerConnectors(
  config: ProviderConnectorsConfig,
  agents: ProviderAgents,
  clock: Clock,
): ProviderConnector[] {
  const timeoutMs = connectorTimeoutMs(config.ACQUIRER_TIMEOUT_MS);
  const agentFor = (url: URL) => agents.agentFor(url);
  return [
    new AdyenConnector({
      agentFor,
      timeoutMs,
      // Adyen requires a returnUrl on every /payments call; a payment with no 3DS session never redirects.
      defaultReturnUrl: config.PUBLIC_BASE_URL,
    }),
    new StripeConnector({ agentFor, timeoutMs, clock }),
  ];
}
