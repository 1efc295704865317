import { Injectable } from '@nestjs/common';
import { Clock, uuidv7 } from '@app/clock';
import {
  CallerContext,
  CancelCommand,
  CancelOrRefundCommand,
  CaptureCommand,
  OperationResult,
  RefundCommand,
} from '@app/contracts';
import { assertNever, Connector, ModificationOutcome, ModificationRequest } from '../connector/connector';
import { AcquirerCalls } from '../connector/acquirer-call';
import { ConnectorRegistry } from '../connector/connector.registry';
import { requestReference } from '../connector/request-reference';
import { IdempotentOperation } from '../idempotency/idempotency-key';
import { IdempotencyService } from '../idempotency/idempotency.service';
import {
  decideCancel,
  decideCancelOrRefund,
  decideCapture,
  decideRefund,
  Decision,
  OperationKind,
  PaymentSnapshot,
} from '../payment/payment-money';
import { applyDecision } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository } from '../payment/payment.repository';
import { toOperationResult } from '../payment/payment.view';

type Decide = (payment: PaymentSnapshot, now: Date) => Decision;

/**
 * Capture, refund, cancel and cancel_or_refund. Each runs in one transaction that row-locks the payment
 * (so concurrent operations on it queue up and see each other's totals), asks the money rules, tells the
 * acquirer, then saves the change, its operation row, its event and the idempotency record.
 *
 * The acquirer refusing the operation is an answer: Operation result `failed`, nothing changed, stored under
 * the Idempotency-Key like any 200. An adapter that throws or does not answer within ACQUIRER_TIMEOUT_MS is
 * not: 503 / 504, the transaction rolls back (key record included), so the same key can be retried.
 */
@Injectable()
export class PaymentOperationsService {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    private readonly connectors: ConnectorRegistry,
    private readonly clock: Clock,
    private readonly acquirer: AcquirerCalls,
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

  private operate(
    ctx: CallerContext,
    operation: IdempotentOperation,
    cmd: { id: string; reference?: string },
    decide: Decide,
  ): Promise<OperationResult> {
    return this.idempotency.run(ctx, operation, cmd, async (manager, requestHash) => {
      const payment = await this.payments.lock(manager, ctx, cmd.id);
      const now = this.clock.now(ctx);
      const decision = decide(payment, now);
      const about = { acquirer: payment.acquirer, operation: decision.kind, paymentId: payment.id };
      const answer = await this.acquirer.call(about, () =>
        modify(this.connectors.get(payment.acquirer), decision.kind, {
          paymentId: payment.id,
          reference: requestReference(ctx, operation, requestHash, payment.id),
          acquirerReference: payment.acquirerReference,
          amount: decision.amount,
        }),
      );
      if (answer.kind === 'failed') return toOperationResult(payment, decision.amount, 'failed');
      const event = applyDecision(payment, decision, now);
      await this.recorder.changed(manager, payment, event, now);
      await this.payments.addOperation(manager, {
        id: uuidv7(),
        paymentId: payment.id,
        kind: decision.kind,
        amountValue: decision.amount.value,
        reference: cmd.reference ?? null,
        createdAt: now,
      });
      return toOperationResult(payment, decision.amount, decision.result);
    });
  }
}

function modify(connector: Connector, kind: OperationKind, request: ModificationRequest): Promise<ModificationOutcome> {
  switch (kind) {
    case 'capture':
      return connector.capture(request);
    case 'refund':
      return connector.refund(request);
    case 'cancel':
      return connector.cancel(request);
    default:
      return assertNever(kind);
  }
}
