import type { ErrorNotes } from './api-errors';

/**
 * The gateway's own 504 (RPC_TIMEOUT_MS), as the OpenAPI documents it on every route: the service may have
 * done the work after the gateway gave up, so the outcome is unknown and only a retry with the same
 * Idempotency-Key is safe (docs/api.md).
 */
export const unknownOutcomeDoc = (service: string): string =>
  `the ${service} service did not answer the gateway within RPC_TIMEOUT_MS (message "The ${service} service did ` +
  'not answer in time; the outcome is unknown…"): the operation may have been recorded, so retry with the same ' +
  'Idempotency-Key, which answers the recorded outcome; a new key could do it twice';

/** The answers of a route the gateway forwards to a service over NATS: the service may be down or slow. */
export const forwardedTo = (service: string): ErrorNotes => ({
  SERVICE_UNAVAILABLE: `the ${service} service is not running, or the message broker is unreachable; nothing was done`,
  UPSTREAM_TIMEOUT: `the outcome is unknown: ${unknownOutcomeDoc(service)}`,
});
