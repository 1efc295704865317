import type { Context } from '@opentelemetry/api';
import { headers as natsHeaders, MsgHdrs } from 'nats';
import { extractTraceContext, injectTraceContext, tracingOn } from '@app/observability';

const getter = {
  get: (h: MsgHdrs | undefined, key: string) => h?.get(key) || undefined,
  keys: (h: MsgHdrs | undefined) => (h ? [...h.keys()] : []),
};

/**
 * NATS headers that carry the trace context (W3C `traceparent`) of `ctx` or the active span, for a command, a
 * reply or an event; undefined when tracing is off (the message then goes without headers, as before).
 */
export function traceHeaders(ctx?: Context): MsgHdrs | undefined {
  if (!tracingOn()) return undefined;
  const h = natsHeaders();
  injectTraceContext(h, (c, key, value) => c.set(key, value), ctx);
  return h.has('traceparent') ? h : undefined;
}

/** The trace context a received message carries (a malformed or missing `traceparent` is ignored). */
export function traceContextOf(msg: { headers?: MsgHdrs }): Context {
  return extractTraceContext(msg.headers, getter);
}

/** The OpenTelemetry messaging attributes of a NATS span. */
export function messagingAttributes(subject: string, operation: 'send' | 'process' | 'publish') {
  return { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation.type': operation };
}
