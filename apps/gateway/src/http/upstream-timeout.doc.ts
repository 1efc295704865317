/**
 * The gateway's own 504 (RPC_TIMEOUT_MS), as the OpenAPI documents it on every route: the service may have
 * done the work after the gateway gave up, so the outcome is unknown and only a retry with the same
 * Idempotency-Key is safe (README, API notes).
 */
export const unknownOutcomeDoc = (service: string): string =>
  `the ${service} service did not answer the gateway within RPC_TIMEOUT_MS (message "The ${service} service did ` +
  'not answer in time; the outcome is unknown…"): the operation may have been recorded, so retry with the same ' +
  'Idempotency-Key, which answers the recorded outcome; a new key could do it twice';
