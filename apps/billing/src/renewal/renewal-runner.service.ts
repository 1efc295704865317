import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { CLOSED_ACCOUNT_REFUSAL, PaymentResponse } from '@app/contracts';
import { batchOrEach } from '@app/database';
import { linkRunTo, LOGGER } from '@app/observability';
import { BILLING_CONFIG, BillingConfig } from '../config';
import type { Scope } from '../scope';
import { ChargeAttempt } from './charge-attempt';
import { InjectedCrash } from './renewal-faults';
import { AttemptMode } from '../subscription/subscription-policy';
import { ChargedAttempt, Recorded } from './renewal-outcome.service';
import { isDeterministic } from './renewal-failure';
import { RenewalSteps } from './renewal-steps';
import { DueRow, RenewalRepository } from './renewal.repository';

/** How a round stamps a step: as of its due instant (a clock advance, a sandbox) or as of now. */
export type StepTime = (row: DueRow) => Date;

/**
 * Runs the scheduler's steps (docs/api.md): claim due subscriptions under a lease (SKIP LOCKED, any number
 * of replicas), then for the claimed batch three parts, never a transaction across a NATS call:
 * open (one transaction for the batch), charge each through payments with its attempt's key (up to
 * RENEWAL_CONCURRENCY at once), record (one transaction for the batch). A step that dies between the charge
 * and the record leaves its lease to run out; the next claim repeats the call with the same key.
 */
@Injectable()
export class RenewalRunner {
  constructor(
    private readonly renewals: RenewalRepository,
    private readonly steps: RenewalSteps,
    private readonly clock: Clock,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * One claim of up to RENEWAL_BATCH due rows, run to its end (a step's failure is logged and left to its
   * lease, or thrown when `strict`; a step that fails for a reason retrying cannot change is parked instead,
   * and not thrown). Answers how many were claimed: a full batch means more may be due.
   */
  async round(upTo: Date, stepTime: StepTime, scope?: Scope, strict = false): Promise<number> {
    const realNow = this.clock.now();
    const rows = await this.renewals.claim(
      upTo,
      realNow,
      this.config.RENEWAL_BATCH,
      new Date(realNow.getTime() + this.config.RENEWAL_LEASE_MS),
      scope,
    );
    if (!rows.length) return 0;
    // With tracing on, the batch's span (the loop's run, a trace of its own) links to the trace of the request
    // that created each subscription it renews or retries.
    linkRunTo(rows);
    const atOf = new Map(rows.map((row) => [row.id, stepTime(row)]));
    const failures: unknown[] = [];
    const failed = async (subscriptionId: string, e: unknown): Promise<void> => {
      if (isDeterministic(e) && (await this.park(subscriptionId, e, atOf.get(subscriptionId) ?? realNow))) return;
      failures.push(e);
      this.logger.warn({ err: e, subscriptionId }, 'renewal step failed; retried when its lease ends');
      // A clock advance answers with the failure, and its retry must not wait out the lease; freeing the
      // row at once is safe, the next attempt sends the same key. (A crash frees nothing: see InjectedCrash.)
      if (strict && !(e instanceof InjectedCrash)) await this.renewals.release(subscriptionId).catch(() => undefined);
    };
    const opened = await this.inBatchOrEach(
      rows.map((row) => ({ id: row.id, at: atOf.get(row.id)! })),
      (steps) => this.steps.opening.openMany(steps).then((m) => steps.map((step) => m.get(step.id)!)),
      (step) => step.id,
      failed,
    );
    const attempts = opened.flatMap((o) => (o?.kind === 'charge' ? [o.attempt] : []));
    // A card whose account the updater found closed is not charged: the attempt is recorded as that refusal.
    const charged: ChargedAttempt[] = attempts
      .filter((a) => a.cardClosed)
      .map((a) => ({ attempt: a, payment: null, mode: 'scheduled', notSent: CLOSED_ACCOUNT_REFUSAL }));
    // Charges go to payments CHARGES_PER_CALL at a time (one message, each with its own key and answer), with
    // RENEWAL_CONCURRENCY charges in flight in all.
    const perCall = Math.min(CHARGES_PER_CALL, this.config.RENEWAL_CONCURRENCY);
    const calls = Math.ceil(this.config.RENEWAL_CONCURRENCY / perCall);
    await inPool(
      chargeCalls(
        attempts.filter((a) => !a.cardClosed),
        perCall,
      ),
      calls,
      async (call) => {
        const outcomes = await this.steps.charges.chargeMany(call);
        for (const [i, o] of outcomes.entries()) {
          if (o.status === 'fulfilled') charged.push({ attempt: call[i], payment: o.value, mode: 'scheduled' });
          else await failed(call[i].subscriptionId, o.reason);
        }
      },
    );
    const recorded = await this.inBatchOrEach(
      charged,
      (batch) => this.steps.outcome.recordMany(batch),
      (c) => c.attempt.subscriptionId,
      failed,
    );
    await Promise.all(recorded.map((r, i) => this.steps.charges.reverseIfStale(charged[i], r)));
    if (strict && failures.length) throw failures[0];
    return rows.length;
  }

  /** Parks a step that failed deterministically; false (left to its lease) if parking itself failed. */
  private async park(subscriptionId: string, e: unknown, at: Date): Promise<boolean> {
    try {
      await this.steps.parking.park(subscriptionId, e, at);
      return true;
    } catch (parkFailure) {
      this.logger.warn({ err: parkFailure, subscriptionId }, 'parking a renewal failed; retried when its lease ends');
      return false;
    }
  }

  /** Charges an opened attempt and records it (the lease is held by the caller and released by the record). */
  async attempt(a: ChargeAttempt, mode: AttemptMode): Promise<{ recorded: Recorded; payment: PaymentResponse | null }> {
    const payment = await this.steps.charges.chargeOnce(a);
    const recorded = await this.steps.outcome.record(a, payment, mode);
    await this.steps.charges.reverseIfStale({ attempt: a, payment, mode }, recorded);
    return { recorded, payment };
  }

  /** Each item's result (undefined where it failed: reported through `failed`); see `batchOrEach`. */
  private async inBatchOrEach<T, R>(
    items: readonly T[],
    work: (batch: T[]) => Promise<R[]>,
    idOf: (item: T) => string,
    failed: (id: string, e: unknown) => Promise<void>,
  ): Promise<Array<R | undefined>> {
    const outcomes = await batchOrEach(items, work, (e) =>
      this.logger.warn({ err: e, size: items.length }, 'renewal batch failed; running its steps one by one'),
    );
    return Promise.all(
      outcomes.map(async (o, i) =>
        o.status === 'fulfilled' ? o.value : void (await failed(idOf(items[i]), o.reason)),
      ),
    );
  }
}

/** Renewal charges per payments call (`mitMany`); RENEWAL_CONCURRENCY still bounds the charges in flight. */
const CHARGES_PER_CALL = 32;

/** The attempts in calls of at most `size`, each call of one merchant and environment (one caller context). */
export function chargeCalls(attempts: readonly ChargeAttempt[], size: number): ChargeAttempt[][] {
  const byScope = new Map<string, ChargeAttempt[]>();
  for (const a of attempts) {
    const scope = `${a.environment}/${a.merchantCode}/${a.merchantId ?? ''}`;
    const list = byScope.get(scope);
    if (list) list.push(a);
    else byScope.set(scope, [a]);
  }
  const calls: ChargeAttempt[][] = [];
  for (const list of byScope.values()) {
    for (let i = 0; i < list.length; i += size) calls.push(list.slice(i, i + size));
  }
  return calls;
}

/** Runs `work` over `items` with at most `limit` at once. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}
