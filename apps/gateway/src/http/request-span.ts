import type { Span } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { extractTraceContext, failSpan, SpanKind, startSpan, withSpan } from '@app/observability';
import { loggedPath } from './logged-path';

export interface RequestWithSpan {
  span?: Span;
}

type Headers = FastifyRequest['headers'];
const getter = {
  get: (h: Headers, key: string) => h[key],
  keys: (h: Headers) => Object.keys(h),
};

/** Probes and scrapes come every few seconds and are not the work: they start no trace. */
const UNTRACED = new Set(['/health/live', '/health/ready', '/metrics']);

export const isTraced = (request: FastifyRequest): boolean => !UNTRACED.has(request.routeOptions?.url ?? '');

/**
 * With tracing on, each request is one server span, a child of the caller's `traceparent` when it sends a
 * well-formed one (a malformed one is ignored: the request starts a trace of its own). The rest of the request
 * runs with the span active, so the commands it sends and the log lines it writes carry its trace.
 */
export function startRequestSpan(request: FastifyRequest & RequestWithSpan, reply: FastifyReply, next: () => void) {
  const route = request.routeOptions?.url;
  const span = startSpan(`${request.method} ${route ?? 'unmatched'}`, {
    kind: SpanKind.SERVER,
    parent: extractTraceContext(request.headers, getter),
    attributes: {
      'http.request.method': request.method,
      'http.route': route ?? 'unmatched',
      // The path as the access log has it: no query string, keyless credentials redacted.
      'url.path': loggedPath(request),
    },
  });
  request.span = span;
  // A client that went away gets no onResponse: the span still ends.
  reply.raw.once('close', () => span?.isRecording() && span.end());
  withSpan(span, next);
}

/** Ends the request's span with its status; answers its ids for the access log line. */
export function endRequestSpan(span: Span, status: number): { traceId: string; spanId: string } {
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) failSpan(span, undefined, `HTTP ${status}`);
  span.end();
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}
