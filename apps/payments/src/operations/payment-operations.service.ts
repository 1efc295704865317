import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, uuidv7 } from '@app/clock';
import {
  CallerContext,
  CancelCommand,
  CancelOrRefundCommand,
  CaptureCommand,
  OperationResult,
  RefundCommand,
} from '@app/contracts';
import { inTransaction } from '@app/database';
import { DomainError } from '@app/errors';
import { assertNever } from '../connector/assert-never';
import { AcquirerCalls, isAcquirerFailure, isOutcomeUnknown } from '../connector/acquirer-call';
import { ConnectorConnections, Through } from '../routing/connector-connections';
import { ModificationOutcome, ModificationRequest } from '../connector/provider-connector';
import { requestReference } from '../connector/request-reference';
import { IdempotentOperation } from '../idempotency/idempotent-operation';
import { IdempotencyService } from '@app/idempotency';
import {
  decideCancel,
  decideCancelOrRefund,
  decideCapture,
  decideRefund,
  Decision,
  OperationKind,
  PaymentSnapshot,
} from '../payment/payment-money';
import { PaymentEntity } from '../payment/payment.entity';
import { isUuid, PaymentRepository } from '../payment/payment.repository';
import { AcquirerAttempt } from '../reservation/acquirer-attempt';
import { AcquirerAttemptRepository } from '../reservation/acquirer-attempt.repository';
import { OperationRecord } from './operation-record';

type Decide = (payment: PaymentSnapshot, now: Date) => Decision;

interface Reserved {
  payment: PaymentEntity;
  attempt: AcquirerAttempt;
  decision: Decision;
}

/**
 * Capture, refund, cancel and cancel_or_refund as reserve, call, record. The reserve transaction
 * row-locks the payment, checks the money rules against the payment as it will be once the operations already
 * in flight on it are recorded (so two concurrent refunds cannot both pass the amount check), and inserts the
 * attempt row with the Idempotency-Key in progress; the acquirer is called with no transaction open; the
 * record transaction applies the answer (OperationRecord).
 *
 * The acquirer refusing the operation is an answer: Operation result `failed`, nothing changed, stored under
 * the Idempotency-Key like any 200. An adapter that throws or does not answer within ACQUIRER_TIMEOUT_MS is
 * not: 503 / 504, the reservation is released (key included), so the same key can be retried. An answer lost
 * after sending (outcome unknown, 504) keeps the reservation for the provider's webhook or the recovery sweep;
 * an answer the provider gives later (`pending`) is answered `pending` and settled by its webhook.
 */
@Injectable()
export class PaymentOperationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly idempotency: IdempotencyService,
    private readonly payments: PaymentRepository,
    private readonly attempts: AcquirerAttemptRepository,
    private readonly records: OperationRecord,
    private readonly clock: Clock,
    private readonly acquirer: AcquirerCalls,
    private readonly connections: ConnectorConnections,
  ) {}

  capture(ctx: CallerContext, cmd: CaptureCommand): Promise<OperationResult> {
    return this.operate(ctx, 'capture', cmd, (p, now) => decideCapture(p, cmd.amount, now));
  }

  refund(ctx: CallerContext, cmd: RefundCommand): Promise<OperationResult> {
    return this.operate(ctx, 'refund', cmd, (p) => decideRefund(p, cmd.amount));
  }

  cancel(ctx: CallerContext, cmd: CancelCommand): Promise<OperationResult> {
    return this.operate(ctx, 'cancel', cmd, (p) => decideCancel(p, cmd.amount));
  }

  cancelOrRefund(ctx: CallerContext, cmd: CancelOrRefundCommand): Promise<OperationResult> {
    return this.operate(ctx, 'cancel_or_refund', cmd, (p) => decideCancelOrRefund(p));
  }

  private async operate(
    ctx: CallerContext,
    operation: IdempotentOperation,
    cmd: { id: string; reference?: string; reason?: string },
    decide: Decide,
  ): Promise<OperationResult> {
    const reserved = await inTransaction(this.db, (m) => this.reserve(m, ctx, operation, cmd, decide));
    if ('replay' in reserved) return reserved.replay;
    const { payment, attempt, decision } = reserved;
    let answer: ModificationOutcome;
    try {
      const about = { acquirer: payment.acquirer, operation: decision.kind, paymentId: payment.id };
      answer = await this.acquirer.call(about, async () =>
        modify(await this.connections.through(payment), decision.kind, {
          paymentId: payment.id,
          reference: attempt.requestReference,
          acquirerReference: payment.acquirerReference ?? '',
          amount: decision.amount,
        }),
      );
    } catch (e) {
      if (isAcquirerFailure(e)) await this.release(ctx, attempt);
      // The provider may have acted: the attempt (and the key) stay for its webhook or the recovery sweep's sync.
      if (isOutcomeUnknown(e)) await this.attempts.markUnknown(attempt.id);
      throw e;
    }
    return inTransaction(this.db, (m) => this.records.record(m, ctx, attempt, answer, this.clock.now(ctx)));
  }

  private async reserve(
    m: EntityManager,
    ctx: CallerContext,
    operation: IdempotentOperation,
    cmd: { id: string; reference?: string; reason?: string },
    decide: Decide,
  ): Promise<Reserved | { replay: OperationResult }> {
    const claim = await this.idempotency.claim<OperationResult>(m, ctx, operation, cmd);
    if (claim.replay) return { replay: claim.replay };
    // Sent together: the pending read runs once the row lock is granted.
    const [payment, pending] = await Promise.all([
      this.payments.lock(m, ctx, cmd.id),
      isUuid(cmd.id) ? this.attempts.pendingModification(m, cmd.id) : undefined,
    ]);
    // Refunds in flight add up; anything on top of a capture or cancel in flight waits for its answer.
    if (pending && pending.kind !== 'refund') {
      throw DomainError.invalidState(`A ${pending.kind} of this payment is in progress; retry once it is answered`);
    }
    const now = this.clock.now(ctx);
    const decision = decide(pending ? { ...payment, ...pending.reserved } : payment, now);
    const attempt: AcquirerAttempt = {
      id: uuidv7(),
      paymentId: payment.id,
      merchantCode: ctx.merchantCode,
      environment: ctx.environment,
      operation,
      requestReference: requestReference(ctx, operation, claim.requestHash, payment.id),
      connectionCode: payment.connectionCode,
      acquirer: payment.acquirer,
      idempotencyKey: ctx.idempotencyKey ?? null,
      detail: {
        kind: decision.kind,
        amount: decision.amount,
        reference: cmd.reference ?? null,
        ...(cmd.reason ? { reason: cmd.reason } : {}),
        decidedAt: now.toISOString(),
        reserved: {
          status: decision.to,
          amountCaptured: decision.amountCaptured,
          amountRefunded: decision.amountRefunded,
        },
      },
    };
    await this.attempts.insert(m, attempt);
    return { payment, attempt, decision };
  }

  /** Nothing was recorded: the attempt and the key go, so the same request can retry. */
  private release(ctx: CallerContext, attempt: AcquirerAttempt): Promise<void> {
    return inTransaction(this.db, async (m) => {
      await this.attempts.drop(m, attempt.id);
      await this.idempotency.release(m, ctx);
    });
  }
}

function modify(
  { connector, connection }: Through,
  kind: OperationKind,
  request: ModificationRequest,
): Promise<ModificationOutcome> {
  switch (kind) {
    case 'capture':
      return connector.capture(connection, request);
    case 'refund':
      return connector.refund(connection, request);
    case 'cancel':
      return connector.cancel(connection, request);
    default:
      return assertNever(kind);
  }
}
