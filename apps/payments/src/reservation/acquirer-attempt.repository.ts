import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deferStatement, gatherRow, runQueueClaim, runStatement, statement } from '@app/database';
import { traceParentOf } from '@app/observability';
import { AcquirerAttempt, ModificationDetail } from './acquirer-attempt';

/**
 * All the attempts of a transaction in one statement (gatherRow); each keeps the traceparent of the request
 * that reserved it (null with tracing off).
 */
const INSERT = statement(
  'acquirer_attempts_insert_many',
  `INSERT INTO acquirer_attempts (id, payment_id, merchant_code, environment, operation, request_reference,
     connection_code, acquirer, idempotency_key, detail, trace_parent)
   SELECT id, payment_id, merchant_code, environment, operation, request_reference, connection_code, acquirer,
     idempotency_key, detail, trace_parent
   FROM json_to_recordset($1::json) AS v(id uuid, payment_id uuid, merchant_code text, environment text,
     operation text, request_reference text, connection_code text, acquirer text, idempotency_key text, detail jsonb,
     trace_parent text)`,
);
// Deletes a transaction's settled attempts (a JSON array of ids, gatherRow), and fails (division by zero) when
// one is gone: the recovery sweep resolved it meanwhile, and this record must not apply the answer a second
// time. As an error, it fails the record's transaction at its commit.
const SETTLE = statement(
  'acquirer_attempts_settle_many',
  `WITH settled AS (
     DELETE FROM acquirer_attempts
     WHERE id = ANY (ARRAY(SELECT json_array_elements_text($1::json)::uuid)) RETURNING 1)
   SELECT 1 / (count(*) = json_array_length($1::json))::int AS one FROM settled`,
);
const DROP = statement('acquirer_attempts_drop', 'DELETE FROM acquirer_attempts WHERE id = $1');
const PENDING_MODIFICATIONS = statement(
  'acquirer_attempts_pending',
  `SELECT detail FROM acquirer_attempts WHERE payment_id = $1 AND detail->>'kind' IN ('capture', 'refund', 'cancel')
   ORDER BY reserved_at DESC, id DESC LIMIT 1`,
);

/** Thrown at the commit of a record whose attempt the recovery sweep already resolved. */
export class AttemptAlreadyResolved extends Error {
  constructor() {
    super('The acquirer attempt was already resolved by the recovery sweep');
    this.name = 'AttemptAlreadyResolved';
  }
}

const COLUMNS = `id, payment_id AS "paymentId", merchant_code AS "merchantCode", environment, operation,
  request_reference AS "requestReference", connection_code AS "connectionCode", acquirer,
  idempotency_key AS "idempotencyKey", detail, trace_parent AS "traceParent",
  outcome_unknown_at AS "outcomeUnknownAt", accepted_reference AS "acceptedReference"`;

const MARK_UNKNOWN = statement(
  'acquirer_attempts_mark_unknown',
  'UPDATE acquirer_attempts SET outcome_unknown_at = now() WHERE id = $1',
);
const ACCEPT = statement(
  'acquirer_attempts_accept',
  'UPDATE acquirer_attempts SET accepted_reference = $2 WHERE id = $1',
);
const MODIFICATIONS_OF = statement(
  'acquirer_attempts_modifications_of',
  `SELECT ${COLUMNS} FROM acquirer_attempts WHERE payment_id = $1 AND detail->>'kind' = $2
   ORDER BY (accepted_reference = $3) DESC NULLS LAST, reserved_at LIMIT 1`,
);
const BY_REFERENCE = statement(
  'acquirer_attempts_by_reference',
  `SELECT ${COLUMNS} FROM acquirer_attempts WHERE request_reference = $1 AND connection_code = $2
   AND merchant_code = $3 AND environment = $4 ORDER BY reserved_at LIMIT 1`,
);
const PENDING_AUTHORIZATION = statement(
  'acquirer_attempts_pending_authorization',
  `SELECT ${COLUMNS} FROM acquirer_attempts WHERE payment_id = $1 ORDER BY reserved_at LIMIT 1`,
);

/** Stale attempts, oldest first, leased for $3 ms (claimed in index order: see runQueueClaim). */
const CLAIM_STALE = statement(
  'acquirer_attempts_claim_stale',
  `UPDATE acquirer_attempts SET claimed_until = now() + make_interval(secs => $3::float8 / 1000)
   WHERE id IN (
     SELECT id FROM acquirer_attempts
     WHERE reserved_at < now() - make_interval(secs => $1::float8 / 1000)
       AND (claimed_until IS NULL OR claimed_until < now())
     ORDER BY reserved_at, id LIMIT $2
     FOR UPDATE SKIP LOCKED)
   RETURNING ${COLUMNS}`,
);

/** Acquirer calls in flight (see AcquirerAttempt). */
@Injectable()
export class AcquirerAttemptRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Deferred to the commit of the reserve transaction. With tracing on the row keeps the request's traceparent:
   * the one the attempt carries, else the active context's (null with tracing off).
   */
  insert(manager: EntityManager, a: AcquirerAttempt): Promise<void> {
    return gatherRow(manager, INSERT, {
      id: a.id,
      payment_id: a.paymentId,
      merchant_code: a.merchantCode,
      environment: a.environment,
      operation: a.operation,
      request_reference: a.requestReference,
      connection_code: a.connectionCode,
      acquirer: a.acquirer,
      idempotency_key: a.idempotencyKey,
      detail: a.detail,
      trace_parent: a.traceParent ?? traceParentOf(),
    });
  }

  /** Deletes the attempt as its answer is recorded; the commit fails with AttemptAlreadyResolved if it was gone. */
  settle(manager: EntityManager, id: string): Promise<void> {
    return gatherRow(manager, SETTLE, id, (e) =>
      (e as { code?: string }).code === '22012' ? new AttemptAlreadyResolved() : e,
    );
  }

  /** Deletes the attempt of a call that recorded nothing (a release). */
  drop(manager: EntityManager, id: string): Promise<void> {
    return deferStatement(manager, DROP, [id]);
  }

  /**
   * The latest capture, refund or cancel still in flight on a payment, read under the payment's row lock: the
   * payment as it will be once those are recorded, so a new operation is checked against it.
   */
  async pendingModification(manager: EntityManager, paymentId: string): Promise<ModificationDetail | undefined> {
    const rows = await runStatement<{ detail: ModificationDetail }>(manager, PENDING_MODIFICATIONS, [paymentId]);
    return rows[0]?.detail;
  }

  /**
   * The answer of the call was lost after it was sent (ConnectorOutcomeUnknown): the attempt stays, marked, for
   * the provider's webhook or the recovery sweep's status sync. Committed on its own.
   */
  async markUnknown(id: string): Promise<void> {
    await runStatement(this.db, MARK_UNKNOWN, [id]);
  }

  /** The attempt in flight that sent `requestReference` through a connection (a webhook about it settles it). */
  async byReference(
    manager: EntityManager,
    scope: { merchantCode: string; environment: string; connectionCode: string },
    requestReference: string,
  ): Promise<AcquirerAttempt | undefined> {
    const rows = await runStatement<AcquirerAttempt>(manager, BY_REFERENCE, [
      requestReference,
      scope.connectionCode,
      scope.merchantCode,
      scope.environment,
    ]);
    return rows[0];
  }

  /**
   * The provider accepted the capture, refund or cancel and reports its result by webhook (ModificationOutcome
   * `pending`): the attempt stays in flight, with the provider's reference of the modification, in the
   * transaction that answers the merchant.
   */
  accept(manager: EntityManager, id: string, providerReference: string): Promise<void> {
    return deferStatement(manager, ACCEPT, [id, providerReference]);
  }

  /** A capture, refund or cancel in flight on a payment: the one the provider named first, else the oldest. */
  async modificationOf(
    manager: EntityManager,
    paymentId: string,
    kind: ModificationDetail['kind'],
    providerReference: string | undefined,
  ): Promise<AcquirerAttempt | undefined> {
    const rows = await runStatement<AcquirerAttempt>(manager, MODIFICATIONS_OF, [
      paymentId,
      kind,
      providerReference ?? null,
    ]);
    return rows[0];
  }

  /** The oldest attempt still in flight on a payment. */
  async ofPayment(manager: EntityManager, paymentId: string): Promise<AcquirerAttempt | undefined> {
    const rows = await runStatement<AcquirerAttempt>(manager, PENDING_AUTHORIZATION, [paymentId]);
    return rows[0];
  }

  /**
   * Attempts reserved more than `olderThanMs` ago (database time), oldest first, leased for `leaseMs`: sweeps on
   * several replicas skip each other's rows (FOR UPDATE SKIP LOCKED, then the lease), and no transaction is
   * held while the acquirer is asked. A crashed sweeper's lease lapses. Each comes with the traceparent of the
   * request that reserved it (null with tracing off).
   */
  claimStale(olderThanMs: number, limit: number, leaseMs: number): Promise<AcquirerAttempt[]> {
    return runQueueClaim<AcquirerAttempt>(this.db, CLAIM_STALE, [olderThanMs, limit, leaseMs]);
  }
}
