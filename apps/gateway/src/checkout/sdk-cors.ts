import type { FastifyInstance } from 'fastify';

/**
 * The routes the browser SDK calls from a merchant's own page, on another origin than the gateway. They are
 * authorized by a bearer credential in a header (a client token, or the session id for resume), never by a
 * cookie, so any origin may call them: `*` without credentials. Every other route stays same-origin.
 */
export const SDK_CORS_PATHS: ReadonlySet<string> = new Set(['/v1/sdk/nonce', '/v1/payment/resume']);

const ALLOW_HEADERS = 'authorization, content-type, idempotency-key, x-request-id';

export function installSdkCors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!SDK_CORS_PATHS.has(request.url.split('?')[0])) return done();
    void reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', 'x-request-id');
    if (request.method !== 'OPTIONS') return done();
    void reply
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', ALLOW_HEADERS)
      .header('access-control-max-age', '600')
      .status(204)
      .send();
  });
}
