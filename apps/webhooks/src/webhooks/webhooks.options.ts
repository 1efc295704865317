import type { EventsStreamLimits } from '@app/messaging';
import type { Resolver } from './target-guard';

/** Injection token of the webhook settings (from the webhooks service's config). */
export const WEBHOOK_OPTIONS = Symbol('WEBHOOK_OPTIONS');

export interface WebhookOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: skip the SSRF address check (local development, tests). */
  allowPrivateTargets: boolean;
  /** Seconds to wait after attempt n before attempt n+1; after the last one fails the delivery is dead. */
  retrySchedule: number[];
  /** WEBHOOK_MAX_ENDPOINTS: live endpoints one merchant may have in one environment. */
  maxEndpoints: number;
  timeoutMs: number;
  pollMs: number;
  /** Durable JetStream consumer name; every webhooks replica shares it, so each event is taken by one. */
  consumerName: string;
  /** The EVENTS stream's limits, applied when the consumer creates or checks the stream. */
  stream: EventsStreamLimits;
  /**
   * Extra CA certificates (PEM) trusted for webhook targets, on top of Node's roots. Only for tests that run the
   * service in-process, where NODE_EXTRA_CA_CERTS (read at process start) cannot be set; never from config.
   */
  extraCa?: string;
  /** Tests that run the sender in-process only: answers DNS in place of dns.lookup; never from config. */
  resolver?: Resolver;
  /** Tests that run the sender in-process only: the address rule in place of isPublicAddress; never from config. */
  isPublicAddress?: (address: string) => boolean;
}
