import {
  context,
  Context,
  Link,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
  Attributes,
  Tracer,
} from '@opentelemetry/api';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-node';

/**
 * Distributed traces (docs/operations.md#tracing). Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then nothing
 * is registered with the OpenTelemetry API, no span is made and the hot paths test one boolean
 * (`tracingOn()`) before touching it. On: one tracer provider per process, W3C trace context, spans batched to
 * the OTLP/HTTP endpoint, and the pg driver instrumented (a span per query).
 */
export interface TracingOptions {
  app: string;
  /** OTLP/HTTP base URL (`/v1/traces` is appended); tracing is off when unset. */
  endpoint?: string;
  /** Share of new traces recorded (0..1); a request that arrives with a sampled parent is always recorded. */
  sampleRatio: number;
  /** Tests only: where spans go instead of the OTLP exporter. */
  spanProcessor?: SpanProcessor;
}

let provider: { forceFlush(): Promise<void> } | undefined;
/** The app's one tracer, looked up once tracing has started. */
let tracer: Tracer = trace.getTracer('payments-platform');

export const tracingOn = (): boolean => provider !== undefined;

/**
 * Starts tracing for this process when an endpoint is configured (idempotent: apps that share a process, as
 * in the in-process test stack, share the first one's provider). Call it before the database connects. The
 * SDK is loaded only then: with tracing off the process does not even hold its code.
 */
export async function startTracing(o: TracingOptions): Promise<void> {
  if (provider || (!o.endpoint && !o.spanProcessor)) return;
  const { registerTracerProvider } = await import('./tracing-sdk');
  if (provider) return;
  const registered = registerTracerProvider(o);
  tracer = registered.getTracer('payments-platform');
  provider = registered;
}

/** Sends the spans still buffered when the app stops (after its last work: pools and NATS close at this stage). */
@Injectable()
export class TracingFlush implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await provider?.forceFlush();
  }
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  /** A new trace (scheduled work), not a child of the active span. */
  root?: boolean;
  /** The parent to use instead of the active context (one extracted from a message). */
  parent?: Context;
}

/**
 * Runs `work` in a span of its own (ended when it settles, marked as an error when it throws). With tracing
 * off it simply runs `work`, with no span.
 */
export function inSpan<T>(name: string, o: SpanOptions, work: (span?: Span) => Promise<T>): Promise<T> {
  if (!provider) return work(undefined);
  const parent = o.parent ?? context.active();
  const span = tracer.startSpan(name, { kind: o.kind, attributes: o.attributes, links: o.links, root: o.root }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await work(span);
    } catch (e) {
      failSpan(span, e);
      throw e;
    } finally {
      span.end();
    }
  });
}

/** Starts a span the caller ends (one that outlives a callback: an HTTP request). Undefined when off. */
export function startSpan(name: string, o: SpanOptions): Span | undefined {
  if (!provider) return undefined;
  return tracer.startSpan(
    name,
    { kind: o.kind, attributes: o.attributes, links: o.links },
    o.parent ?? context.active(),
  );
}

export function failSpan(span: Span | undefined, e: unknown, message?: string): void {
  if (!span) return;
  if (e instanceof Error) span.recordException(e);
  span.setStatus({ code: SpanStatusCode.ERROR, message: message ?? (e instanceof Error ? e.message : String(e)) });
}

/** Runs `fn` with `span` as the active one (when there is a span). */
export function withSpan<T>(span: Span | undefined, fn: () => T): T {
  return span ? context.with(trace.setSpan(context.active(), span), fn) : fn();
}

/** The active context, to carry to work that runs later (a batch flushed on the next turn). Undefined when off. */
export const activeTraceContext = (): Context | undefined => (provider ? context.active() : undefined);

/** The trace and span ids of the active span, for log lines; undefined when off or outside a span. */
export function activeSpanIds(): { traceId: string; spanId: string } | undefined {
  if (!provider) return undefined;
  const ids = trace.getActiveSpan()?.spanContext();
  return ids && trace.isSpanContextValid(ids) ? { traceId: ids.traceId, spanId: ids.spanId } : undefined;
}

/**
 * The context a carrier (HTTP headers, NATS headers) names with a `traceparent`, on top of `base` (the active
 * one unless given); a missing or malformed `traceparent` is ignored (the work starts a trace of its own).
 */
export function extractTraceContext<C>(
  carrier: C,
  getter: { get(c: C, key: string): string | string[] | undefined; keys(c: C): string[] },
  base: Context = context.active(),
): Context {
  return propagation.extract(base, carrier, getter);
}

/** Writes the `traceparent` (and `tracestate`) of `ctx` into a carrier. */
export function injectTraceContext<C>(carrier: C, set: (c: C, key: string, value: string) => void, ctx?: Context) {
  propagation.inject(ctx ?? context.active(), carrier, { set });
}

/** A link to the span that a stored or carried context names, for work done on its behalf later. */
export function linkTo(ctx: Context | undefined): Link[] {
  const s = ctx && trace.getSpanContext(ctx);
  return s && trace.isSpanContextValid(s) ? [{ context: s }] : [];
}

/**
 * The W3C `traceparent` of `ctx` (the active context unless given), to store on a row whose work is done later
 * by scheduled work (an outbox row, a webhook delivery, a subscription); null when tracing is off or there is
 * no valid span.
 */
export function traceParentOf(ctx?: Context): string | null {
  if (!provider) return null;
  const carrier: { traceparent?: string } = {};
  injectTraceContext(
    carrier,
    (c, key, value) => {
      if (key === 'traceparent') c.traceparent = value;
    },
    ctx,
  );
  return carrier.traceparent ?? null;
}

const storedTraceParent = {
  get: (s: string, key: string) => (key === 'traceparent' ? s : undefined),
  keys: () => ['traceparent'],
};

/**
 * The context a stored `traceparent` names, for a parent or a link; undefined when tracing is off, when there
 * is none, and when it is malformed (a bad stored value is ignored, never an error).
 */
export function contextFromTraceParent(traceParent: string | null | undefined): Context | undefined {
  if (!provider || !traceParent) return undefined;
  const ctx = extractTraceContext(traceParent, storedTraceParent, ROOT_CONTEXT);
  const s = trace.getSpanContext(ctx);
  return s && trace.isSpanContextValid(s) ? ctx : undefined;
}

/**
 * Links the active span (a loop's run) to the work it turned out to do for others, known only once it has
 * claimed its rows; nothing when there is no span or no link.
 */
export function linkActiveSpan(links: Link[]): void {
  if (links.length) trace.getActiveSpan()?.addLinks(links);
}

/** A row that keeps the W3C `traceparent` of the request that handed it to later work (null with tracing off). */
export interface StoredTrace {
  traceParent?: string | null;
}

/**
 * Links the active span (a loop's run) to the stored trace of each row it claimed, so the request that left
 * the work behind can be found from the run and the other way round; nothing with tracing off.
 */
export function linkRunTo(claimed: readonly StoredTrace[]): void {
  if (tracingOn()) linkActiveSpan(claimed.flatMap((row) => linkTo(contextFromTraceParent(row.traceParent))));
}

export { SpanKind };
