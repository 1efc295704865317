import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { Metrics } from '@app/observability';

/** A refusal code as a metric label: the normalized reason code, or `failed` for a processing failure. */
export const reasonLabel = (reasonCode: string | null | undefined): string => reasonCode ?? 'failed';

/**
 * What dunning recovers (docs/operations.md, Revenue recovery), counted once a run's step commits: runs
 * started and lost by the refusal that started them, retries by connection and outcome, invoices recovered
 * by that refusal and the connection that charged, and the money recovered (minor units, by currency).
 * Recovery rate by reason: recovered / started; by connection: recovered / retries.
 */
@Injectable()
export class RecoveryMetrics {
  private readonly started: Counter;
  private readonly lost: Counter;
  private readonly retries: Counter;
  private readonly recovered: Counter;
  private readonly amount: Counter;

  constructor(metrics: Metrics) {
    const registers = [metrics.registry];
    this.started = new Counter({
      name: 'billing_dunning_runs_started_total',
      help: 'Renewals declined: dunning runs started (or suspended at once on a terminal refusal), by refusal reason',
      labelNames: ['reason'],
      registers,
    });
    this.lost = new Counter({
      name: 'billing_dunning_runs_lost_total',
      help: 'Dunning runs that ended with the subscription suspended, by the refusal reason that started them',
      labelNames: ['reason'],
      registers,
    });
    this.retries = new Counter({
      name: 'billing_dunning_retries_total',
      help: 'Charges of past-due invoices (dunning and forced retries), by the connection that answered and outcome',
      labelNames: ['connection', 'outcome'],
      registers,
    });
    this.recovered = new Counter({
      name: 'billing_dunning_recovered_total',
      help: 'Past-due invoices paid, by the refusal reason that started the run and the connection that charged',
      labelNames: ['reason', 'connection'],
      registers,
    });
    this.amount = new Counter({
      name: 'billing_dunning_recovered_amount_total',
      help: 'Money recovered by dunning: amounts of past-due invoices paid, in minor units, by currency',
      labelNames: ['currency'],
      registers,
    });
  }

  runStarted(reason: string): void {
    this.started.inc({ reason });
  }

  runLost(reason: string): void {
    this.lost.inc({ reason });
  }

  retried(connection: string, outcome: 'approved' | 'declined'): void {
    this.retries.inc({ connection, outcome });
  }

  recoveredInvoice(reason: string, connection: string, currency: string, amount: number): void {
    this.recovered.inc({ reason, connection });
    this.amount.inc({ currency }, amount);
  }
}
