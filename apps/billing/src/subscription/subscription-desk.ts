import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { inTransaction } from '@app/database';
import { LeasedRun } from '@app/idempotency';
import { BillingEvents } from '../billing-events';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { PaymentsClient } from '../payments/payments.client';
import { PlanRepository } from '../plan/plan.repository';
import { SubscriptionRepository } from './subscription.repository';

/**
 * What the subscription commands share: the plans, subscriptions and invoices they read and change, the
 * events they emit, the clock, the transaction that records a change, and the payments calls before it.
 */
@Injectable()
export class SubscriptionDesk {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    readonly plans: PlanRepository,
    readonly subscriptions: SubscriptionRepository,
    readonly invoices: InvoiceRepository,
    readonly events: BillingEvents,
    readonly payments: PaymentsClient,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  /**
   * Records what a payment already paid; when the record fails (the subscription changed meanwhile, say) the
   * payment is given back under the lease's own call key, and the failure stands.
   */
  async recordedOrReversed<T>(
    ctx: CallerContext,
    lease: LeasedRun,
    paymentId: string | undefined,
    record: () => Promise<T>,
  ): Promise<T> {
    try {
      return await record();
    } catch (e) {
      if (paymentId) await this.payments.reverse(ctx, paymentId, lease.callKey('reverse'));
      throw e;
    }
  }
}
