import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityInsert, entityInsertMany, entitySelect, entityUpdateMany, uniqueViolation } from '@app/database';
import { DomainError } from '@app/errors';
import { isUuid, Scope } from '../scope';
import { InvoiceEntity } from './invoice.entity';

const insertInvoice = entityInsert(InvoiceEntity, 'invoices_insert');
const insertInvoices = entityInsertMany(InvoiceEntity, 'invoices_insert_many');
const updateInvoices = entityUpdateMany(InvoiceEntity, 'invoices_update_many');

const openOfMany = entitySelect(
  InvoiceEntity,
  'invoices_open_of_many_locked',
  `subscription_id = ANY($1) AND status = 'open' ORDER BY id FOR UPDATE`,
);
const openOf = entitySelect(
  InvoiceEntity,
  'invoices_open_of_locked',
  `subscription_id = $1 AND status = 'open' ORDER BY id FOR UPDATE`,
);
const inScope = entitySelect(InvoiceEntity, 'invoices_in_scope', 'id = $1 AND merchant_code = $2 AND environment = $3');
/** $2: the last id of the previous page, or null. */
const page = entitySelect(
  InvoiceEntity,
  'invoices_page_of_subscription',
  'subscription_id = $1 AND ($2::uuid IS NULL OR id < $2) ORDER BY id DESC LIMIT $3',
);

/** One invoice per subscription period: a second one for the same period start is 409. */
const periodTaken = (e: unknown): unknown =>
  uniqueViolation(e) === 'invoices_subscription_period'
    ? DomainError.invalidState('The subscription already has an invoice for this period')
    : e;

@Injectable()
export class InvoiceRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One invoice per subscription period: a second one for the same period start is 409. */
  insert(manager: EntityManager, invoice: InvoiceEntity): Promise<void> {
    return insertInvoice(manager, invoice, periodTaken);
  }

  /** Every column of the invoice, by id. */
  save(manager: EntityManager, invoice: InvoiceEntity): Promise<void> {
    return updateInvoices(manager, [invoice]);
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
    return openOfMany(manager, [subscriptionIds]);
  }

  find(scope: Scope, id: string): Promise<InvoiceEntity | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return inScope(this.db, [id, scope.merchantCode, scope.environment]).then(([invoice]) => invoice ?? null);
  }

  /** Open invoices of a subscription, locked (a cancel voids them). */
  openOf(manager: EntityManager, subscriptionId: string): Promise<InvoiceEntity[]> {
    return openOf(manager, [subscriptionId]);
  }

  /** A subscription's invoices, newest first. */
  listOf(subscriptionId: string, o: { limit: number; startingAfter?: string }): Promise<InvoiceEntity[]> {
    return page(this.db, [subscriptionId, o.startingAfter ?? null, o.limit]);
  }
}
