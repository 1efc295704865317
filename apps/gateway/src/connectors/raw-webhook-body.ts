import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONNECTOR_WEBHOOK_BODY_LIMIT } from '@app/contracts';

/**
 * The route of a provider's inbound webhook, as the router matched it (never the request's text: the router
 * decodes and normalises paths): its body must reach payments byte for byte (the signature covers it).
 */
export const CONNECTOR_WEBHOOK_ROUTE = '/v1/connectors/:connectionId/webhooks';

export type RequestWithRawBody = FastifyRequest & { rawWebhookBody?: Buffer };

/**
 * Keeps the raw body of provider webhook calls (only those) before Fastify parses it: a re-serialized JSON would
 * not verify. Larger than CONNECTOR_WEBHOOK_BODY_LIMIT: 413 PAYLOAD_TOO_LARGE, nothing forwarded.
 */
export function installRawWebhookBody(fastify: FastifyInstance): void {
  fastify.addHook('preParsing', async (request: RequestWithRawBody, _reply, payload) => {
    if (request.method !== 'POST' || request.routeOptions.url !== CONNECTOR_WEBHOOK_ROUTE) return payload;
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped, not left unread: a client still sending would otherwise
    // see its connection reset (EPIPE) instead of reading the 413.
    for await (const chunk of payload) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      if (size <= CONNECTOR_WEBHOOK_BODY_LIMIT) chunks.push(buffer);
    }
    if (size > CONNECTOR_WEBHOOK_BODY_LIMIT) {
      throw Object.assign(new Error('Request body is too large'), {
        statusCode: 413,
        code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      });
    }
    request.rawWebhookBody = Buffer.concat(chunks);
    return Readable.from([request.rawWebhookBody]);
  });
}

/** The route of a provider's 3DS return URL (see ThreeDsReturnController), as the router matched it. */
const CHALLENGE_RETURN_ROUTE = '/v1/3ds/return/:sessionId';

/**
 * Providers post their 3DS result as a form (application/x-www-form-urlencoded), which the gateway otherwise
 * refuses (415): on the return URL only, a form is read as text and its fields parsed by the controller.
 */
export function installChallengeReturnForms(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const type = request.headers['content-type'];
    if (
      request.method === 'POST' &&
      typeof type === 'string' &&
      type.toLowerCase().startsWith('application/x-www-form-urlencoded') &&
      request.routeOptions.url === CHALLENGE_RETURN_ROUTE
    ) {
      request.headers['content-type'] = 'text/plain; charset=utf-8';
    }
    done();
  });
}
