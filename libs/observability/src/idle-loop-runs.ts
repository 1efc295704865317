import { Context, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-node';

/** The attribute the pg instrumentation's response hook sets on each statement's span (tracing-sdk.ts). */
export const RETURNED_ROWS = 'db.response.returned_rows';

/**
 * Drops the traces of background loop runs that found nothing to do. Every loop run is a trace of its own
 * (`loop.name` on its root span, libs/platform/src/loops/periodic-loop.ts), and most runs of a poller find
 * nothing (the outbox relay looks four times a second): exported, they would bury the runs that did work. A
 * run's spans are held until its root ends; if it did not fail and every other span is a statement that
 * touched no row, the run is dropped, else all of it goes on to `next`.
 */
export class IdleLoopRunFilter implements SpanProcessor {
  private readonly held = new Map<string, { rootId: string; spans: ReadableSpan[] }>();

  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    if (!span.parentSpanContext && span.attributes['loop.name'] !== undefined) {
      this.held.set(span.spanContext().traceId, { rootId: span.spanContext().spanId, spans: [] });
    }
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const { traceId, spanId } = span.spanContext();
    const run = this.held.get(traceId);
    if (!run) return this.next.onEnd(span);
    if (spanId !== run.rootId) {
      run.spans.push(span);
      return;
    }
    this.held.delete(traceId);
    const idle = run.spans.every((s) => s.attributes[RETURNED_ROWS] === 0);
    if (idle && span.status.code !== SpanStatusCode.ERROR) return;
    for (const s of run.spans) this.next.onEnd(s);
    this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}
