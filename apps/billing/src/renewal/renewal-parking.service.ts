import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { Counter } from 'prom-client';
import { EventTypes } from '@app/contracts';
import { LOGGER, Metrics } from '@app/observability';
import { BillingDesk } from '../subscription/billing-desk';
import { toSubscriptionView } from '../subscription/subscription.view';
import { parkReason } from './renewal-failure';
import { RenewalRepository } from './renewal.repository';

/**
 * Parks a renewal that failed for a reason retrying cannot change (renewal-failure.ts): the subscription
 * keeps its status, gets `renewal_parked_at` and a readable reason, and its lease is freed; the scheduler and
 * sandbox clock advances skip it from then on. One transaction: the mark and the `subscription.renewal_parked`
 * event (outbox). Counted in `billing_renewals_parked_total` and logged as an error. Once the cause is fixed,
 * an operator retries it (RetryParkedRenewalUseCase): the park is lifted and the scheduler runs the renewal at
 * its next round.
 */
@Injectable()
export class RenewalParking {
  private readonly parked: Counter;

  constructor(
    private readonly desk: BillingDesk,
    private readonly renewals: RenewalRepository,
    metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.parked = new Counter({
      name: 'billing_renewals_parked_total',
      help: 'Renewals parked after failing for a reason retrying cannot change (see the subscription.renewal_parked events)',
      registers: [metrics.registry],
    });
  }

  /** Marks the subscription parked as of `at` (the step's instant); answers whether this call parked it. */
  async park(subscriptionId: string, error: unknown, at: Date): Promise<boolean> {
    const reason = parkReason(error);
    const parked = await this.desk.transaction(async (manager) => {
      const s = await this.renewals.lockSubscription(manager, subscriptionId);
      if (!s || s.renewalParkedAt) return null;
      Object.assign(s, { renewalParkedAt: at, renewalParkedReason: reason, updatedAt: at });
      await this.desk.subscriptions.updateManyAndRelease(manager, [s]);
      const plan = await this.desk.plans.find(s, s.planId, manager);
      const view = toSubscriptionView(s, plan ?? undefined);
      await this.desk.events.emit(manager, s, [EventTypes.subscriptionRenewalParked], view, at);
      return s;
    });
    if (!parked) return false;
    this.parked.inc();
    this.logger.error(
      { err: error, subscriptionId, merchantCode: parked.merchantCode, environment: parked.environment, reason },
      'renewal parked: it fails for a reason retrying cannot change; renewals of this subscription stop until it is retried',
    );
    return true;
  }
}
