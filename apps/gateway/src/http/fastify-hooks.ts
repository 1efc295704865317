import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { assertStorableText } from '@app/errors';
import { Draining, Metrics, requestContext, RequestStore, tracingOn } from '@app/observability';
import { discardBody } from './discard-body';
import { ignoredFieldsHeader, isValidFieldValue } from './ignored-fields-header';
import { loggedPath } from './logged-path';
import { endRequestSpan, isTraced, RequestWithSpan, startRequestSpan } from './request-span';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** X-Request-Id from the caller when it is sane, else a fresh one. */
export function requestIdFrom(header: string | string[] | undefined, generate: () => string): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && REQUEST_ID.test(value) ? value : generate();
}

/**
 * Edge behaviour that happens outside Nest's pipeline: the request id header, text that cannot be stored, the
 * ignored-fields header, access logs and metrics. Errors raised before routing (body parsing, limits) reach the error
 * handler Nest installs on Fastify, hence each server's global HttpExceptionFilter: one envelope for all. Installed
 * on each of the gateway's servers (public and internal) alike; they count their requests in progress together,
 * as one process.
 */
export function installHooks(servers: FastifyInstance[], logger: Logger, metrics: Metrics, draining: Draining): void {
  const inProgress = { count: 0 };
  metrics.inProgress('http', () => inProgress.count);
  for (const server of servers) installServerHooks(server, logger, metrics, draining, inProgress);
}

function installServerHooks(
  app: FastifyInstance,
  logger: Logger,
  metrics: Metrics,
  draining: Draining,
  inProgress: { count: number },
): void {
  // The rest of the request (body parsing, guards, pipes, handler) runs inside its context: the requestId
  // reaches every log line and the validation pipe records ignored fields for the header below. Fastify
  // carries the context across body parsing, so no Nest interceptor (and its per-request rxjs chain) is needed.
  app.addHook('onRequest', (request: FastifyRequest & { store?: RequestStore }, reply, done) => {
    void reply.header('x-request-id', request.id);
    inProgress.count++;
    // 'close' comes once per response, sent or abandoned (onResponse misses a client that went away).
    reply.raw.once('close', () => inProgress.count--);
    const store: RequestStore = { requestId: String(request.id) };
    request.store = store;
    if (tracingOn() && isTraced(request)) startRequestSpan(request, reply, () => requestContext.run(store, done));
    else requestContext.run(store, done);
  });

  // Every route, before its guards and pipes: a string PostgreSQL cannot store (NUL, an unpaired surrogate) in
  // the path, the query or the parsed body is 400 VALIDATION_FAILED naming the field, whatever the route does.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      assertStorableText(request.params);
      assertStorableText(request.query);
      assertStorableText(request.body);
      done();
    } catch (e) {
      done(e as Error);
    }
  });

  app.addHook('onSend', (request: FastifyRequest & { store?: RequestStore }, reply, payload, done) => {
    setIgnoredFields(request, reply, logger);
    const send = () => {
      // Stopping: the client's next request goes to a new connection, hence to another replica.
      if (draining.active) void reply.header('connection', 'close');
      done(null, payload);
    };
    if (request.raw.complete) return send();
    // Answered before the body was read: a body over the limit, or a refusal before parsing (a path of the
    // other port, an unknown media type). Whoever answers, the answer passes here: the rest of the body is read
    // and dropped first, so a client still writing reads the answer instead of a reset, and the connection
    // stays usable. Beyond the bound the answer closes the connection.
    void discardBody(request.raw).then((ended) => {
      if (ended) void reply.removeHeader('connection');
      else {
        logger.warn({ requestId: request.id }, 'Body not read to its end before the answer: answering and closing');
        void reply.header('connection', 'close');
      }
      send();
    });
  });

  app.addHook('onResponse', (request: FastifyRequest & RequestWithSpan, reply: FastifyReply, done) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    const ms = reply.elapsedTime;
    const span = request.span && endRequestSpan(request.span, reply.statusCode);
    metrics.observe(request.method, route, reply.statusCode, ms / 1000);
    // The path only (a query string could carry something secret), with keyless credentials redacted.
    logger.info(
      {
        requestId: request.id,
        method: request.method,
        route,
        path: loggedPath(request),
        status: reply.statusCode,
        ms: Math.round(ms * 10) / 10,
        ...span,
      },
      'request',
    );
    done();
  });
}

/**
 * Names the ignored fields, encoded and capped. The answer may already be committed (a capture, a replay of
 * its key): a header that cannot be built is left out and logged, and never changes the answer.
 */
function setIgnoredFields(request: FastifyRequest & { store?: RequestStore }, reply: FastifyReply, logger: Logger) {
  const ignored = request.store?.ignoredFields;
  if (!ignored?.length) return;
  try {
    const value = ignoredFieldsHeader(ignored);
    if (value === undefined) return;
    if (!isValidFieldValue(value)) throw new Error('not a valid header value');
    void reply.header('x-ignored-fields', value);
  } catch (err) {
    logger.warn({ err, requestId: request.id }, 'X-Ignored-Fields left out');
  }
}
