import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { Metrics } from '@app/observability';

/** What became of one connector call: an answer (approval, decline, …), unreachable, or too slow. */
export type ConnectorCallOutcome = 'answered' | 'failed' | 'timeout';

/**
 * Calls to the acquirers by connector (the connection's acquirer: sandbox, adyen, stripe), operation and
 * outcome, and their latency: `payments_connector_calls_total` and `payments_connector_call_duration_seconds`.
 */
@Injectable()
export class ConnectorMetrics {
  private readonly calls: Counter<'connector' | 'operation' | 'outcome'>;
  private readonly duration: Histogram<'connector' | 'operation'>;

  constructor(metrics: Metrics) {
    const registers = [metrics.registry];
    this.calls = new Counter({
      name: 'payments_connector_calls_total',
      help: 'Calls to an acquirer, by connector, operation and outcome (answered, failed: unreachable, timeout)',
      labelNames: ['connector', 'operation', 'outcome'],
      registers,
    });
    this.duration = new Histogram({
      name: 'payments_connector_call_duration_seconds',
      help: 'How long an acquirer took to answer (or to fail), in seconds, by connector and operation',
      labelNames: ['connector', 'operation'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
  }

  observe(connector: string, operation: string, outcome: ConnectorCallOutcome, seconds: number): void {
    this.calls.inc({ connector, operation, outcome });
    this.duration.observe({ connector, operation }, seconds);
  }
}
