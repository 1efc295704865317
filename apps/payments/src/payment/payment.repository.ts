import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { filterValues, PaymentListFilter } from './payment-filter';
import { CallerContext } from '@app/contracts';
import {
  deferStatement,
  entityInsert,
  entitySelect,
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
/**
 * Every column a change after creation may touch, by id; the status is the one the caller's transition table
 * chose (`trace_parent` is written once, on insert). Awaited in the caller's transaction.
 */
const UPDATE = statement(
  'payments_update',
  `UPDATE payments SET merchant_code = $2, environment = $3, payment_code = $4, order_code = $5, status = $6,
          intent = $7, payment_method = $8, amount_value = $9, currency = $10, exponent = $11, amount_captured = $12,
          amount_refunded = $13, authorization_code = $14, connection_code = $15, connection_name = $16,
          acquirer = $17, acquirer_reference = $18, card = $19, card_address = $20, card_on_file = $21,
          instalments = $22, apm = $23, token = $24, action_required = $25, refusal_code = $26,
          three_d_secure = $27, shopper = $28, webhook_url = $29, ip_address = $30, three_ds_session_id = $31,
          metadata = $32, attempts = $33, hold_expires_at = $34, cancel_reason = $35, created_at = $36,
          updated_at = $37
    WHERE id = $1`,
);
const insertOperation = entityInsert(PaymentOperationEntity, 'payment_operations_insert', { awaited: true });

// Every read but the recovery sweep's leaves reserved payments out: half-made, they are nobody's yet.
const reservedById = entitySelect(PaymentEntity, 'payments_reserved', `id = $1 AND status = 'reserved'`);
const inScope = entitySelect(
  PaymentEntity,
  'payments_in_scope',
  `id = $1 AND merchant_code = $2 AND environment = $3 AND status <> 'reserved'`,
);
const lockedInScope = entitySelect(
  PaymentEntity,
  'payments_lock_in_scope',
  `id = $1 AND merchant_code = $2 AND environment = $3 AND status <> 'reserved' FOR UPDATE`,
);
/** A merchant's own receipt id (paymentCode) wins over an id that happens to look like it. */
const byCodeOrId = entitySelect(
  PaymentEntity,
  'payments_by_code_or_id',
  `merchant_code = $1 AND environment = $2 AND status <> 'reserved' AND (payment_code = $3 OR id = $3::uuid)
    ORDER BY (payment_code = $3) DESC LIMIT 1`,
);
const byCode = entitySelect(
  PaymentEntity,
  'payments_by_code',
  `merchant_code = $1 AND environment = $2 AND status <> 'reserved' AND payment_code = $3 LIMIT 1`,
);
const byCodeAcrossMerchants = entitySelect(
  PaymentEntity,
  'payments_by_code_any_merchant',
  `payment_code = $1 AND environment = $2 AND NOT code_shared AND status <> 'reserved'`,
);
const LIST_CURSOR = statement(
  'payments_list_cursor',
  'SELECT created_at FROM payments WHERE id = $1 AND merchant_code = $2 AND environment = $3',
);
/** A page of the list: after the cursor `($3, $4)` when given, the filters of `filterValues` from `$5` on. */
const listPage = entitySelect(
  PaymentEntity,
  'payments_list',
  `merchant_code = $1 AND environment = $2 AND status <> 'reserved'
    AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
    AND ($5::text IS NULL OR order_code = $5::text)
    AND ($6::text IS NULL OR order_code LIKE $6::text OR payment_code LIKE $6::text)
    AND ($7::text IS NULL OR lower(shopper->>'email') = lower($7::text))
    AND ($8::text IS NULL OR right(card->'cardData'->>'cardNumber', 4) = $8::text)
    AND ($9::text IS NULL OR status = $9::text)
    AND (NOT $10::boolean OR (status = 'captured' AND amount_refunded > 0))
    AND ($11::bigint IS NULL OR amount_value >= $11::bigint)
    AND ($12::bigint IS NULL OR amount_value <= $12::bigint)
    AND ($13::timestamptz IS NULL OR created_at >= $13::timestamptz)
    AND ($14::timestamptz IS NULL OR created_at < $14::timestamptz)
    ORDER BY created_at DESC, id DESC LIMIT $15`,
);
const refunds = entitySelect(
  PaymentOperationEntity,
  'payment_operations_refunds_of',
  `payment_id = ANY($1::uuid[]) AND kind = 'refund' ORDER BY created_at, id`,
);
/**
 * Authorizations whose hold ended by `$1`, `$2`/`$3` one merchant's in one environment or null for all. A
 * capture or cancel in flight decides the hold's fate; the sweep comes back if it recorded nothing.
 */
const HOLDS_DUE = `status = 'authorized' AND hold_expires_at IS NOT NULL AND hold_expires_at <= $1
  AND NOT EXISTS (SELECT 1 FROM acquirer_attempts a WHERE a.payment_id = payments.id)
  AND ($2::text IS NULL OR merchant_code = $2::text) AND ($3::text IS NULL OR environment = $3::text)
  ORDER BY hold_expires_at, id LIMIT $4 FOR UPDATE`;
const claimHolds = entitySelect(PaymentEntity, 'payments_claim_expired_holds', `${HOLDS_DUE} SKIP LOCKED`);
const claimHoldsWaiting = entitySelect(PaymentEntity, 'payments_claim_expired_holds_waiting', HOLDS_DUE);

/** A jsonb parameter: the value as JSON text (pg would send an array as a PostgreSQL array), null as NULL. */
const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

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

  async update(manager: EntityManager, p: PaymentEntity): Promise<void> {
    await runStatement(manager, UPDATE, [
      p.id,
      p.merchantCode,
      p.environment,
      p.paymentCode,
      p.orderCode,
      p.status,
      p.intent,
      p.paymentMethod,
      p.amountValue,
      p.currency,
      p.exponent,
      p.amountCaptured,
      p.amountRefunded,
      p.authorizationCode,
      p.connectionCode,
      p.connectionName,
      p.acquirer,
      p.acquirerReference,
      json(p.card),
      json(p.cardAddress),
      json(p.cardOnFile),
      p.instalments,
      json(p.apm),
      json(p.token),
      json(p.actionRequired),
      json(p.refusalCode),
      json(p.threeDSecure),
      json(p.shopper),
      p.webhookUrl,
      p.ipAddress,
      p.threeDsSessionId,
      json(p.metadata),
      json(p.attempts),
      p.holdExpiresAt,
      p.cancelReason,
      p.createdAt,
      p.updatedAt,
    ]);
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
    const [payment] = await reservedById(manager, [id]);
    return payment ?? null;
  }

  async addOperation(manager: EntityManager, operation: PaymentOperationEntity): Promise<void> {
    await insertOperation(manager, operation);
  }

  /** The payment, row-locked until the transaction ends; 404 unless it is this merchant's in this environment. */
  async lock(manager: EntityManager, scope: Scope, id: string): Promise<PaymentEntity> {
    if (!isUuid(id)) throw notFound();
    const [payment] = await lockedInScope(manager, [id, scope.merchantCode, scope.environment]);
    if (!payment) throw notFound();
    return payment;
  }

  async get(scope: Scope, id: string): Promise<PaymentEntity> {
    const [payment] = isUuid(id) ? await inScope(this.db, [id, scope.merchantCode, scope.environment]) : [];
    if (!payment) throw notFound();
    return payment;
  }

  /** By paymentCode, else by id: a merchant's own receipt id wins over an id that happens to look like it. */
  async getByReference(scope: Scope, reference: string): Promise<PaymentEntity> {
    const select = isUuid(reference) ? byCodeOrId : byCode;
    const [payment] = await select(this.db, [scope.merchantCode, scope.environment, reference]);
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
    const [payment] = await byCodeAcrossMerchants(this.db, [paymentCode, environment]);
    if (!payment) throw DomainError.notFound('payment', 'reference');
    return payment;
  }

  /**
   * Newest first, by (created_at, id), every filter of `o` holding; `startingAfter` is the last id of the
   * previous page, so a payment made while paging (newer) never shifts the pages after it.
   */
  async list(scope: Scope, o: PaymentListFilter & { limit: number; startingAfter?: string }): Promise<PaymentEntity[]> {
    let after: Date | null = null;
    if (o.startingAfter !== undefined) {
      if (!isUuid(o.startingAfter)) throw DomainError.notFound('payment', 'startingAfter');
      const [cursor] = await runStatement<{ created_at: Date }>(this.db, LIST_CURSOR, [
        o.startingAfter,
        scope.merchantCode,
        scope.environment,
      ]);
      if (!cursor) throw DomainError.notFound('payment', 'startingAfter');
      after = cursor.created_at;
    }
    const cursor = [after, after ? o.startingAfter : null];
    return listPage(this.db, [scope.merchantCode, scope.environment, ...cursor, ...filterValues(o), o.limit]);
  }

  /** The refunds of these payments, oldest first. */
  refundsOf(paymentIds: string[]): Promise<PaymentOperationEntity[]> {
    if (!paymentIds.length) return Promise.resolve([]);
    return refunds(this.db, [paymentIds]);
  }

  /**
   * Authorizations whose hold ended by `now`, earliest first, row-locked. Sweeper replicas skip rows another
   * one holds (FOR UPDATE SKIP LOCKED); a sandbox clock advance (`waitForLocks`) waits for them instead, so
   * it never answers while one of its due holds is still being voided elsewhere.
   */
  claimExpiredHolds(manager: EntityManager, now: Date, limit: number, o: ClaimOptions = {}): Promise<PaymentEntity[]> {
    const claim = o.waitForLocks ? claimHoldsWaiting : claimHolds;
    return claim(manager, [now, o.scope?.merchantCode ?? null, o.scope?.environment ?? null, limit]);
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
