import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { CallerContext, EventTypes, SubscriptionView } from '@app/contracts';
import { Clock } from '@app/clock';
import { DomainError } from '@app/errors';
import { LOGGER, Metrics } from '@app/observability';
import { inTransaction } from '@app/database';
import { BillingEvents } from '../billing-events';
import { PlanRepository } from '../plan/plan.repository';
import { SubscriptionRepository } from '../subscription/subscription.repository';
import { toSubscriptionView } from '../subscription/subscription.view';
import { parkReason } from './renewal-failure';
import { RenewalRepository } from './renewal.repository';

/**
 * Parks a renewal that failed for a reason retrying cannot change (renewal-failure.ts): the subscription
 * keeps its status, gets `renewal_parked_at` and a readable reason, and its lease is freed; the scheduler and
 * sandbox clock advances skip it from then on. One transaction: the mark and the `subscription.renewal_parked`
 * event (outbox). Counted in `billing_renewals_parked_total` and logged as an error. Once the cause is fixed,
 * an operator retries it (`retry`): the park is lifted and the scheduler runs the renewal at its next round.
 */
@Injectable()
export class RenewalParking {
  private readonly parked: Counter;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly renewals: RenewalRepository,
    private readonly subscriptions: SubscriptionRepository,
    private readonly plans: PlanRepository,
    private readonly events: BillingEvents,
    private readonly clock: Clock,
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
    const parked = await inTransaction(this.db, async (manager) => {
      const s = await this.renewals.lockSubscription(manager, subscriptionId);
      if (!s || s.renewalParkedAt) return null;
      Object.assign(s, { renewalParkedAt: at, renewalParkedReason: reason, updatedAt: at });
      await this.subscriptions.updateManyAndRelease(manager, [s]);
      const plan = await this.plans.find(s, s.planId, manager);
      const view = toSubscriptionView(s, plan ?? undefined);
      await this.events.emit(manager, s, [EventTypes.subscriptionRenewalParked], view, at);
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

  /** Lifts the park of a subscription of this scope (404 unknown, 409 not parked); answers it as it stands. */
  async retry(ctx: CallerContext, id: string): Promise<SubscriptionView> {
    const view = await inTransaction(this.db, async (manager) => {
      const s = await this.subscriptions.findForUpdate(manager, ctx, id);
      if (!s) throw DomainError.notFound('subscription', 'id');
      if (!s.renewalParkedAt) throw DomainError.invalidState('The subscription has no parked renewal');
      Object.assign(s, { renewalParkedAt: null, renewalParkedReason: null, updatedAt: this.clock.now(ctx) });
      await this.subscriptions.updateMany(manager, [s]);
      return toSubscriptionView(s, (await this.plans.find(s, s.planId, manager)) ?? undefined);
    });
    this.logger.info({ subscriptionId: id, merchantCode: ctx.merchantCode }, 'parked renewal retried');
    return view;
  }
}
