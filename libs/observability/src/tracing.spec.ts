import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { headers as natsHeaders } from 'nats';
import { traceContextOf, traceHeaders } from '@app/messaging';
import {
  activeSpanIds,
  contextFromTraceParent,
  inSpan,
  linkActiveSpan,
  linkTo,
  startTracing,
  traceParentOf,
  tracingOn,
} from './tracing';

// One file, in order: first a process without an endpoint, then the same process once tracing has started.
describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  beforeAll(() => startTracing({ app: 'test', endpoint: undefined, sampleRatio: 1 }));

  it('registers nothing: the OpenTelemetry API stays a no-op', () => {
    expect(tracingOn()).toBe(false);
    const span = trace.getTracer('any').startSpan('work');
    expect(span.isRecording()).toBe(false);
    span.end();
    expect(trace.getSpan(context.active())).toBeUndefined();
  });

  it('runs work without a span, sends no headers and logs no ids', async () => {
    let seen: unknown = 'unset';
    await inSpan('work', {}, async (span) => {
      seen = span;
      expect(activeSpanIds()).toBeUndefined();
      expect(traceHeaders()).toBeUndefined();
      expect(traceParentOf()).toBeNull();
    });
    expect(seen).toBeUndefined();
    expect(contextFromTraceParent(`00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`)).toBeUndefined();
  });
});

describe('tracing on', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => startTracing({ app: 'test', sampleRatio: 1, spanProcessor: new SimpleSpanProcessor(exporter) }));
  beforeEach(() => exporter.reset());
  const finished = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name)!;

  it('nests spans, starts a new trace for a root, and marks a failure', async () => {
    expect(tracingOn()).toBe(true);
    await inSpan('outer', {}, async () => {
      await inSpan('inner', {}, async () => expect(activeSpanIds()).toBeDefined());
      await inSpan('scheduled', { root: true }, async () => undefined);
      await expect(inSpan('fails', {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    });
    const outer = finished('outer');
    expect(finished('inner').parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(finished('inner').spanContext().traceId).toBe(outer.spanContext().traceId);
    expect(finished('scheduled').parentSpanContext).toBeUndefined();
    expect(finished('scheduled').spanContext().traceId).not.toBe(outer.spanContext().traceId);
    expect(finished('fails').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('carries the context in NATS headers; a malformed traceparent is ignored', async () => {
    let sent: ReturnType<typeof traceHeaders>;
    await inSpan('send', {}, async () => void (sent = traceHeaders()));
    const send = finished('send');
    expect(sent?.get('traceparent')).toBe(`00-${send.spanContext().traceId}-${send.spanContext().spanId}-01`);
    await inSpan('handle', { parent: traceContextOf({ headers: sent }) }, async () => undefined);
    expect(finished('handle').parentSpanContext?.spanId).toBe(send.spanContext().spanId);

    for (const bad of ['00-xyz-abc-01', '00-00000000000000000000000000000000-0000000000000000-01', '']) {
      const h = natsHeaders();
      h.set('traceparent', bad);
      const ctx = traceContextOf({ headers: h });
      expect(trace.getSpanContext(ctx)).toBeUndefined();
      expect(linkTo(ctx)).toEqual([]);
    }
  });

  it('carries a context as a stored traceparent; a missing or malformed one is ignored', async () => {
    expect(traceParentOf()).toBeNull(); // no span
    let stored: string | null = null;
    await inSpan('request', {}, async () => void (stored = traceParentOf()));
    const request = finished('request');
    expect(stored).toBe(`00-${request.spanContext().traceId}-${request.spanContext().spanId}-01`);
    expect(traceParentOf(contextFromTraceParent(stored))).toBe(stored);

    await inSpan('publish', { parent: contextFromTraceParent(stored) }, async () => undefined);
    expect(finished('publish').parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    await inSpan('run', { root: true }, async () => {
      // Inside a span, a malformed value still names nothing (not the active span).
      const bad = ['00-xyz-abc-01', `00-${'0'.repeat(32)}-${'0'.repeat(16)}-01`, 'garbage', '', null, undefined];
      for (const s of bad) expect(contextFromTraceParent(s)).toBeUndefined();
      linkActiveSpan([...linkTo(contextFromTraceParent(stored)), ...linkTo(contextFromTraceParent('garbage'))]);
      linkActiveSpan([]);
    });
    expect(finished('run').links.map((l) => l.context.spanId)).toEqual([request.spanContext().spanId]);
  });

  it('drops a loop run that found nothing to do, keeps one that did something or failed', async () => {
    const loop = { root: true, attributes: { 'loop.name': 'sweep' } };
    await inSpan('idle run', loop, async () => {
      await inSpan('SELECT', { attributes: { 'db.response.returned_rows': 0 } }, async () => undefined);
    });
    await inSpan('busy run', loop, async () => {
      await inSpan('UPDATE', { attributes: { 'db.response.returned_rows': 3 } }, async () => undefined);
    });
    await inSpan('command run', loop, async () => {
      await inSpan('cmd.payments.purchase', {}, async () => undefined);
    });
    await expect(inSpan('failed run', loop, async () => Promise.reject(new Error('db down')))).rejects.toThrow();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual([
      'UPDATE',
      'busy run',
      'cmd.payments.purchase',
      'command run',
      'failed run',
    ]);
  });
});
