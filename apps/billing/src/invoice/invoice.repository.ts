import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityInsertMany, entityUpdateMany, uniqueViolation } from '@app/database';
import { DomainError } from '@app/errors';
import { isUuid, Scope } from '../scope';
import { InvoiceEntity } from './invoice.entity';

const insertInvoices = entityInsertMany(InvoiceEntity, 'invoices_insert_many');
const updateInvoices = entityUpdateMany(InvoiceEntity, 'invoices_update_many');

/** One invoice per subscription period: a second one for the same period start is 409. */
const periodTaken = (e: unknown): unknown =>
  uniqueViolation(e) === 'invoices_subscription_period'
    ? DomainError.invalidState('The subscription already has an invoice for this period')
    : e;

@Injectable()
export class InvoiceRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One invoice per subscription period: a second one for the same period start is 409. */
  async insert(manager: EntityManager, invoice: InvoiceEntity): Promise<void> {
    try {
      await manager.insert(InvoiceEntity, invoice);
    } catch (e) {
      if (uniqueViolation(e) === 'invoices_subscription_period') {
        throw DomainError.invalidState('The subscription already has an invoice for this period');
      }
      throw e;
    }
  }

  async save(manager: EntityManager, invoice: InvoiceEntity): Promise<void> {
    await manager.save(InvoiceEntity, invoice);
  }

  /** New invoices in one statement (sent with the commit of a pipelined transaction). */
  insertMany(manager: EntityManager, invoices: readonly InvoiceEntity[]): Promise<void> {
    return insertInvoices(manager, invoices, periodTaken);
  }

  /** Every column of each invoice, by id, in one statement (the rows locked by the caller). */
  updateMany(manager: EntityManager, invoices: readonly InvoiceEntity[]): Promise<void> {
    return updateInvoices(manager, invoices);
  }

  /** The open invoices of these subscriptions, locked (a cancel voids them). */
  openOfMany(manager: EntityManager, subscriptionIds: readonly string[]): Promise<InvoiceEntity[]> {
    if (!subscriptionIds.length) return Promise.resolve([]);
    return manager
      .createQueryBuilder(InvoiceEntity, 'i')
      .setLock('pessimistic_write')
      .where(`i.subscription_id IN (:...subscriptionIds) AND i.status = 'open'`, { subscriptionIds })
      .orderBy('i.id', 'ASC')
      .getMany();
  }

  find(scope: Scope, id: string): Promise<InvoiceEntity | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.getRepository(InvoiceEntity).findOne({
      where: { id, merchantCode: scope.merchantCode, environment: scope.environment },
    });
  }

  /** Open invoices of a subscription, locked (a cancel voids them). */
  openOf(manager: EntityManager, subscriptionId: string): Promise<InvoiceEntity[]> {
    return manager
      .createQueryBuilder(InvoiceEntity, 'i')
      .setLock('pessimistic_write')
      .where(`i.subscription_id = :subscriptionId AND i.status = 'open'`, { subscriptionId })
      .orderBy('i.id', 'ASC')
      .getMany();
  }

  /** A subscription's invoices, newest first. */
  listOf(subscriptionId: string, o: { limit: number; startingAfter?: string }): Promise<InvoiceEntity[]> {
    const qb = this.db
      .getRepository(InvoiceEntity)
      .createQueryBuilder('i')
      .where('i.subscription_id = :subscriptionId', { subscriptionId })
      .orderBy('i.id', 'DESC')
      .limit(o.limit);
    if (o.startingAfter !== undefined) qb.andWhere('i.id < :after', { after: o.startingAfter });
    return qb.getMany();
  }
}
