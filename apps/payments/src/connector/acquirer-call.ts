import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { DomainError } from '@app/errors';
import { inSpan, LOGGER, SpanKind, tracingOn } from '@app/observability';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { ConnectionHealth } from '../routing/connection-health';
import { ConnectorCallOutcome, ConnectorMetrics } from './connector-metrics';
import { DeadlineExceeded, withDeadline } from './deadline';

/** The acquirer could not be reached or did not answer in time: nothing it did is known (503 / 504). */
export class AcquirerFailure extends DomainError {}

export const isAcquirerFailure = (e: unknown): e is AcquirerFailure => e instanceof AcquirerFailure;

/** What a call is about: the log line, the span, the connector metrics and the connection's health. */
export interface AcquirerCallAbout {
  /** The connector's name (the connection's acquirer): a label of the metrics and the span. */
  acquirer: string;
  operation: string;
  paymentId: string;
  /** The connection the call goes through: its ConnectionHealth records the outcome. */
  connectionId?: string;
}

/**
 * Every call to an acquirer adapter goes through here, with no transaction open: the request's reservation
 * (its Idempotency-Key, the order code, the payment's pending operation) waits for it, hence the deadline of
 * ACQUIRER_TIMEOUT_MS. An adapter that throws answers 503 SERVICE_UNAVAILABLE, one that is too slow 504
 * UPSTREAM_TIMEOUT (downstream trouble); the caller then releases the reservation, so nothing is
 * recorded and the request can be retried (with the same request reference). A late answer is dropped.
 */
@Injectable()
export class AcquirerCalls {
  constructor(
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly health: ConnectionHealth,
    private readonly metrics: ConnectorMetrics,
  ) {}

  call<T>(about: AcquirerCallAbout, call: () => Promise<T>): Promise<T> {
    if (!tracingOn()) return this.callIn(about, call);
    const attributes = {
      'acquirer.name': about.acquirer,
      'connector.name': about.acquirer,
      ...(about.connectionId ? { 'connection.id': about.connectionId } : {}),
      'acquirer.operation': about.operation,
      'payment.id': about.paymentId,
    };
    return inSpan(`acquirer ${about.operation}`, { kind: SpanKind.CLIENT, attributes }, () => this.callIn(about, call));
  }

  private async callIn<T>(about: AcquirerCallAbout, call: () => Promise<T>): Promise<T> {
    const timeoutMs = this.config.ACQUIRER_TIMEOUT_MS;
    const started = performance.now();
    const done = (outcome: ConnectorCallOutcome) => {
      this.metrics.observe(about.acquirer, about.operation, outcome, (performance.now() - started) / 1000);
      if (about.connectionId) this.health.record(about.connectionId, outcome === 'answered');
    };
    try {
      const answer = await withDeadline(call(), timeoutMs);
      done('answered');
      return answer;
    } catch (e) {
      done(e instanceof DeadlineExceeded ? 'timeout' : 'failed');
      if (e instanceof DeadlineExceeded) {
        this.logger.error({ ...about, timeoutMs }, 'Acquirer did not answer in time');
        throw new AcquirerFailure(
          'UPSTREAM_TIMEOUT',
          'The acquirer did not answer in time; nothing was recorded and the request can be retried',
        );
      }
      // The adapter's error may name hosts or the acquirer's own codes: for the logs, not for the merchant.
      this.logger.error({ ...about, err: e }, 'Acquirer call failed');
      throw new AcquirerFailure(
        'SERVICE_UNAVAILABLE',
        'The acquirer could not be reached; nothing was recorded and the request can be retried',
      );
    }
  }
}
