import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { applyFilter, PaymentListFilter } from './payment-filter';
import { CallerContext } from '@app/contracts';
import {
  deferStatement,
  entityInsert,
  runStatement,
  entityInsertGathered,
  entityUpdateGathered,
  statement,
  uniqueViolation,
} from '@app/database';
import { DomainError } from '@app/errors';
import { PaymentEntity, PaymentOperationEntity } from './payment.entity';
import { PAYMENT_MACHINE } from './payment-state';

export type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const notFound = (): DomainError => DomainError.notFound('payment', 'id');

const insertPayment = entityInsert(PaymentEntity, 'payments_insert');
// A group of purchases reserves, and records, its payments with one statement each (see gatherRow).
const reservePayments = entityInsertGathered(PaymentEntity, 'payments_reserve');
const recordPayments = entityUpdateGathered(PaymentEntity, 'payments_record');
const RELEASE = statement('payments_release', `DELETE FROM payments WHERE id = $1 AND status = 'reserved'`);
const ACQUIRER_REFERENCE = statement(
  'payments_acquirer_reference',
  'SELECT acquirer_reference FROM payments WHERE id = $1',
);
/** Every read but the recovery sweep's leaves reserved payments out: half-made, they are nobody's yet. */
const VISIBLE = `p.status <> 'reserved'`;

/** A unique index that says the order or payment code is taken: 409. */
function codeTaken(e: unknown): unknown {
  const constraint = uniqueViolation(e);
  if (constraint === 'payments_order_code_live') return duplicateOrder();
  if (constraint === 'payments_payment_code' || constraint === 'payments_payment_code_environment') {
    return duplicatePaymentCode();
  }
  return e;
}

/** Payments SQL: scoping by merchant and environment, and the row locks of operations and sweeps. */
@Injectable()
export class PaymentRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Deferred to the commit inside a pipelined transaction; a taken order or payment code fails it with 409. */
  insert(manager: EntityManager, payment: PaymentEntity): Promise<void> {
    return insertPayment(manager, payment, codeTaken);
  }

  async update(manager: EntityManager, payment: PaymentEntity): Promise<void> {
    const { id, ...fields } = payment;
    await manager.update(PaymentEntity, { id }, fields);
  }

  /**
   * The payment as reserved before its acquirer call (the table's initial state, `reserved`), deferred to the reserve's commit; a
   * taken order or payment code fails it with 409.
   */
  insertReserved(manager: EntityManager, payment: PaymentEntity): Promise<void> {
    return reservePayments(manager, { ...payment, status: PAYMENT_MACHINE.spec.initial }, codeTaken);
  }

  /** Every column of the payment as recorded after the call, gathered into one statement with the commit. */
  record(manager: EntityManager, payment: PaymentEntity): Promise<void> {
    return recordPayments(manager, payment);
  }

  /** Deletes a reserved payment whose call recorded nothing: its order and payment codes are free again. */
  release(manager: EntityManager, id: string): Promise<void> {
    return deferStatement(manager, RELEASE, [id]);
  }

  /** A reserved payment, for the recovery sweep (which holds its attempt's row lock). */
  async reserved(manager: EntityManager, id: string): Promise<PaymentEntity | null> {
    return manager.getRepository(PaymentEntity).findOneBy({ id, status: 'reserved' });
  }

  async addOperation(manager: EntityManager, operation: PaymentOperationEntity): Promise<void> {
    await manager.insert(PaymentOperationEntity, operation);
  }

  /** The payment, row-locked until the transaction ends; 404 unless it is this merchant's in this environment. */
  async lock(manager: EntityManager, scope: Scope, id: string): Promise<PaymentEntity> {
    if (!isUuid(id)) throw notFound();
    const payment = await manager
      .getRepository(PaymentEntity)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where(`p.id = :id AND p.merchant_code = :m AND p.environment = :e AND ${VISIBLE}`, {
        id,
        m: scope.merchantCode,
        e: scope.environment,
      })
      .getOne();
    if (!payment) throw notFound();
    return payment;
  }

  async get(scope: Scope, id: string): Promise<PaymentEntity> {
    const payment = isUuid(id)
      ? await this.db
          .getRepository(PaymentEntity)
          .createQueryBuilder('p')
          .where(`p.id = :id AND p.merchant_code = :m AND p.environment = :e AND ${VISIBLE}`, {
            id,
            m: scope.merchantCode,
            e: scope.environment,
          })
          .getOne()
      : null;
    if (!payment) throw notFound();
    return payment;
  }

  /** By paymentCode, else by id: a merchant's own receipt id wins over an id that happens to look like it. */
  async getByReference(scope: Scope, reference: string): Promise<PaymentEntity> {
    const payment = await this.db
      .getRepository(PaymentEntity)
      .createQueryBuilder('p')
      .where(`p.merchant_code = :m AND p.environment = :e AND ${VISIBLE}`, {
        m: scope.merchantCode,
        e: scope.environment,
      })
      .andWhere(isUuid(reference) ? '(p.payment_code = :ref OR p.id = :ref::uuid)' : 'p.payment_code = :ref', {
        ref: reference,
      })
      .orderBy('(p.payment_code = :ref)', 'DESC')
      .limit(1)
      .getOne();
    if (!payment) throw DomainError.notFound('payment', 'reference');
    return payment;
  }

  /**
   * The visible payment of `environment` with this paymentCode, across merchants (the keyless inquiry). A code
   * names one payment per environment (payments_payment_code_environment: a second merchant cannot take it);
   * the payments of a code two merchants shared before that rule (`code_shared`, all but the first merchant's)
   * are never answered here.
   */
  async getOnlyByPaymentCode(environment: CallerContext['environment'], paymentCode: string): Promise<PaymentEntity> {
    const payment = await this.db
      .getRepository(PaymentEntity)
      .createQueryBuilder('p')
      .where(`p.payment_code = :code AND p.environment = :e AND NOT p.code_shared AND ${VISIBLE}`, {
        code: paymentCode,
        e: environment,
      })
      .getOne();
    if (!payment) throw DomainError.notFound('payment', 'reference');
    return payment;
  }

  /**
   * Newest first, by (created_at, id), every filter of `o` holding; `startingAfter` is the last id of the
   * previous page, so a payment made while paging (newer) never shifts the pages after it.
   */
  async list(scope: Scope, o: PaymentListFilter & { limit: number; startingAfter?: string }): Promise<PaymentEntity[]> {
    const q = this.db
      .getRepository(PaymentEntity)
      .createQueryBuilder('p')
      .where(`p.merchant_code = :m AND p.environment = :e AND ${VISIBLE}`, {
        m: scope.merchantCode,
        e: scope.environment,
      });
    applyFilter(q, o);
    if (o.startingAfter !== undefined) {
      if (!isUuid(o.startingAfter)) throw DomainError.notFound('payment', 'startingAfter');
      const cursor = await this.db.query(
        `SELECT created_at FROM payments WHERE id = $1 AND merchant_code = $2 AND environment = $3`,
        [o.startingAfter, scope.merchantCode, scope.environment],
      );
      if (!cursor.length) throw DomainError.notFound('payment', 'startingAfter');
      q.andWhere('(p.created_at, p.id) < (:afterAt, :after::uuid)', {
        afterAt: cursor[0].created_at,
        after: o.startingAfter,
      });
    }
    return q.orderBy('p.created_at', 'DESC').addOrderBy('p.id', 'DESC').limit(o.limit).getMany();
  }

  /** The refunds of these payments, oldest first. */
  refundsOf(paymentIds: string[]): Promise<PaymentOperationEntity[]> {
    if (!paymentIds.length) return Promise.resolve([]);
    return this.db
      .getRepository(PaymentOperationEntity)
      .createQueryBuilder('o')
      .where(`o.payment_id = ANY(:ids) AND o.kind = 'refund'`, { ids: paymentIds })
      .orderBy('o.created_at')
      .addOrderBy('o.id')
      .getMany();
  }

  /**
   * Authorizations whose hold ended by `now`, earliest first, row-locked. Sweeper replicas skip rows another
   * one holds (FOR UPDATE SKIP LOCKED); a sandbox clock advance (`waitForLocks`) waits for them instead, so
   * it never answers while one of its due holds is still being voided elsewhere.
   */
  claimExpiredHolds(manager: EntityManager, now: Date, limit: number, o: ClaimOptions = {}): Promise<PaymentEntity[]> {
    const q = manager
      .getRepository(PaymentEntity)
      .createQueryBuilder('p')
      .addSelect('p.traceParent')
      .setLock('pessimistic_write')
      .where("p.status = 'authorized' AND p.hold_expires_at IS NOT NULL AND p.hold_expires_at <= :now", { now })
      // A capture or cancel in flight decides the hold's fate; the sweep comes back if it recorded nothing.
      .andWhere('NOT EXISTS (SELECT 1 FROM acquirer_attempts a WHERE a.payment_id = p.id)');
    if (!o.waitForLocks) q.setOnLocked('skip_locked');
    if (o.scope) {
      q.andWhere('p.merchant_code = :m AND p.environment = :e', { m: o.scope.merchantCode, e: o.scope.environment });
    }
    return q.orderBy('p.hold_expires_at').addOrderBy('p.id').limit(limit).getMany();
  }

  /** The payment's reference at the provider, any status (the recovery of an attempt on it asks). */
  async acquirerReference(paymentId: string): Promise<string | undefined> {
    const [row] = await runStatement<{ acquirer_reference: string | null }>(this.db, ACQUIRER_REFERENCE, [paymentId]);
    return row?.acquirer_reference ?? undefined;
  }
}

/** Which due rows a sweep claims: one merchant's in one environment, or all; skipping locked rows or not. */
export interface ClaimOptions {
  scope?: Scope;
  waitForLocks?: boolean;
}

const duplicateOrder = (): DomainError =>
  new DomainError(
    'DUPLICATE_ORDER_CODE',
    'This orderCode belongs to a payment that was not declined, failed or cancelled',
    'orderCode',
  );
const duplicatePaymentCode = (): DomainError =>
  new DomainError('DUPLICATE_PAYMENT_CODE', 'This paymentCode is already used', 'paymentCode');
