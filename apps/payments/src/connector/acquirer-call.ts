import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import type { ConnectionFailureReason } from '@app/contracts';
import { DomainError } from '@app/errors';
import { inSpan, LOGGER, SpanKind, tracingOn } from '@app/observability';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { ConnectionHealth } from './connection-health';
import { ConnectorCallOutcome, ConnectorMetrics } from './connector-metrics';
import { DeadlineExceeded, withDeadline } from './deadline';
import { ConnectorOutcomeUnknown } from './provider-connector';

/**
 * The acquirer could not be reached or did not answer in time (503 / 504): the caller releases the reservation,
 * and a retry sends the same request reference (the provider's Idempotency-Key) again.
 */
export class AcquirerFailure extends DomainError {}

export const isAcquirerFailure = (e: unknown): e is AcquirerFailure => e instanceof AcquirerFailure;

/**
 * The connector sent the request and its answer was lost (ConnectorOutcomeUnknown: a timeout, a 5xx, a dropped
 * connection): the provider may have acted. 504 UPSTREAM_TIMEOUT, and unlike AcquirerFailure nothing is
 * released: the attempt stays, marked unknown, with the Idempotency-Key in progress, until the provider's
 * webhook or the recovery sweep's status sync settles it; the merchant's retry with the same key waits (409
 * IDEMPOTENCY_IN_PROGRESS) and then replays that answer. Never retried as a new charge.
 */
export class AcquirerOutcomeUnknown extends DomainError {
  constructor(paymentId: string) {
    super(
      'UPSTREAM_TIMEOUT',
      'The acquirer received the request and its answer was lost: the outcome is being settled with the acquirer. ' +
        'Retry with the same Idempotency-Key to get it; nothing will be charged twice',
      undefined,
      { paymentId, outcome: 'unknown' },
    );
  }
}

export const isOutcomeUnknown = (e: unknown): e is AcquirerOutcomeUnknown => e instanceof AcquirerOutcomeUnknown;

/** The built-in simulator's `acquirer`: it acts at once and durably, so its late answer is its retry's answer. */
export const SIMULATOR_ACQUIRER = 'sandbox';

/** What a call is about: the log line, the span, the connector metrics and the connection's health. */
export interface AcquirerCallAbout {
  /**
   * The connector's name (the connection's acquirer): a label of the metrics and the span. Every acquirer but
   * the simulator: a call past ACQUIRER_TIMEOUT_MS may have been acted on, so it is an unknown
   * outcome (kept for the provider's webhook or a status sync), never a release. The simulator's late call is
   * released, as before: its retry, with the same request reference, gets the answer it already gave.
   */
  acquirer: string;
  operation: string;
  paymentId: string;
  /** The connection the call goes through: its ConnectionHealth records the outcome. */
  connectionId?: string;
}

/**
 * Every call to an acquirer adapter goes through here, with no transaction open: the request's reservation
 * (its Idempotency-Key, the order code, the payment's pending operation) waits for it, hence the deadline of
 * ACQUIRER_TIMEOUT_MS. A connector that throws (or says ConnectorNotSent) answers 503 SERVICE_UNAVAILABLE, the
 * simulator too slow 504 UPSTREAM_TIMEOUT (downstream trouble); the caller then releases the reservation, so
 * nothing is recorded and the request can be retried (with the same request reference). A late answer is
 * dropped. A lost answer (ConnectorOutcomeUnknown, or a real provider past the deadline) is AcquirerOutcomeUnknown:
 * the caller keeps the reservation for the provider's webhook or the recovery sweep's status sync.
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
    const done = (outcome: ConnectorCallOutcome, reason?: ConnectionFailureReason) => {
      this.metrics.observe(about.acquirer, about.operation, outcome, (performance.now() - started) / 1000);
      if (about.connectionId) this.health.record(about.connectionId, outcome === 'answered', reason);
    };
    try {
      const answer = await withDeadline(call(), timeoutMs);
      done('answered');
      return answer;
    } catch (e) {
      if (e instanceof DeadlineExceeded) done('timeout', 'timeout');
      else done('failed', e instanceof ConnectorOutcomeUnknown ? 'answer_lost' : 'unreachable');
      if (e instanceof DeadlineExceeded && about.acquirer !== SIMULATOR_ACQUIRER) {
        this.logger.error({ ...about, timeoutMs }, 'Acquirer did not answer in time: outcome unknown');
        throw new AcquirerOutcomeUnknown(about.paymentId);
      }
      if (e instanceof DeadlineExceeded) {
        this.logger.error({ ...about, timeoutMs }, 'Acquirer did not answer in time');
        throw new AcquirerFailure(
          'UPSTREAM_TIMEOUT',
          'The acquirer did not answer in time; nothing was recorded and the request can be retried',
        );
      }
      if (e instanceof ConnectorOutcomeUnknown) {
        this.logger.error({ ...about, err: e }, 'Acquirer outcome unknown: left for its webhook or status sync');
        throw new AcquirerOutcomeUnknown(about.paymentId);
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
