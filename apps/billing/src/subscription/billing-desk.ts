import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { inTransaction } from '@app/database';
import { BillingEvents } from '../billing-events';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { PlanRepository } from '../plan/plan.repository';
import { SubscriptionRepository } from './subscription.repository';

/**
 * What billing's commands and renewal steps share: the plans, subscriptions and invoices they read and change,
 * the events they emit with a change, and the transaction that records it.
 */
@Injectable()
export class BillingDesk {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    readonly plans: PlanRepository,
    readonly subscriptions: SubscriptionRepository,
    readonly invoices: InvoiceRepository,
    readonly events: BillingEvents,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }
}
