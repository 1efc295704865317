import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { IdleLoopRunFilter, RETURNED_ROWS } from './idle-loop-runs';
import type { TracingOptions } from './tracing';

/**
 * The OpenTelemetry SDK of a process that traces (loaded by `startTracing` only): spans batched to the
 * OTLP/HTTP endpoint (the SDK's OTEL_BSP_* and OTEL_EXPORTER_OTLP_HEADERS variables apply), new traces sampled
 * at the configured ratio and a sampled parent always followed, the AsyncLocalStorage context manager, the W3C
 * trace-context propagator, and the pg driver instrumented (a span per statement with the rows it touched,
 * only inside a traced operation: a pool's own statements start no trace). Loop runs that found nothing to do
 * are not exported (IdleLoopRunFilter).
 */
export function registerTracerProvider(o: TracingOptions): NodeTracerProvider {
  const processor =
    o.spanProcessor ??
    new BatchSpanProcessor(new OTLPTraceExporter({ url: `${o.endpoint!.replace(/\/+$/, '')}/v1/traces` }));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': o.app }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(o.sampleRatio) }),
    spanProcessors: [new IdleLoopRunFilter(processor)],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new PgInstrumentation({
        requireParentSpan: true,
        // A pool's connects are not the work: the statements and the transactions are.
        ignoreConnectSpans: true,
        responseHook: (span, { data }) => span.setAttribute(RETURNED_ROWS, data.rowCount ?? 0),
      }),
    ],
  });
  return provider;
}
