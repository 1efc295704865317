import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext, EventType, EventTypes, OperationResult } from '@app/contracts';
import { assertNever } from '../connector/assert-never';
import { ModificationOutcome } from '../connector/provider-connector';
import { IdempotencyService } from '@app/idempotency';
import { decideCancel, decideCapture, decideRefund, Decision, PaymentSnapshot } from '../payment/payment-money';
import { applyDecision } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository } from '../payment/payment.repository';
import { toOperationResult } from '../payment/payment.view';
import { AcquirerAttempt, ModificationDetail } from '../reservation/acquirer-attempt';
import { AcquirerAttemptRepository } from '../reservation/acquirer-attempt.repository';

/**
 * The record step of a capture, refund or cancel, in the caller's transaction: the attempt row settled (the
 * commit fails if the recovery sweep resolved it first), the payment row-locked and changed as the rules say
 * for it as it stands now (operations reserved on it earlier may have been recorded since), its operation row,
 * its event and the Idempotency-Key's answer. The acquirer refusing is an answer too: `failed`, nothing changed,
 * and the operation's failure event (`payment.capture_failed`, `payment.refund_failed`, `payment.cancel_failed`).
 * The provider accepting it for later (`pending`) is answered `pending` and changes nothing yet: its attempt stays
 * in flight until the provider's webhook (or a status sync) records the result here, with its event. A key
 * answered `pending` keeps that answer.
 */
@Injectable()
export class OperationRecord {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly attempts: AcquirerAttemptRepository,
    private readonly recorder: PaymentRecorder,
    private readonly idempotency: IdempotencyService,
  ) {}

  async record(
    manager: EntityManager,
    ctx: CallerContext,
    attempt: AcquirerAttempt,
    answer: ModificationOutcome,
    now: Date,
  ): Promise<OperationResult> {
    const detail = attempt.detail as ModificationDetail;
    if (answer.kind === 'pending') {
      // Accepted: the attempt stays in flight (later operations count it) until the provider's webhook settles it.
      await this.attempts.accept(manager, attempt.id, answer.providerReference);
      const payment = await this.payments.lock(manager, ctx, attempt.paymentId);
      const pending = toOperationResult(payment, detail.amount, 'pending');
      await this.idempotency.complete(manager, ctx, pending);
      return pending;
    }
    await this.attempts.settle(manager, attempt.id);
    const payment = await this.payments.lock(manager, ctx, attempt.paymentId);
    let result: OperationResult;
    if (answer.kind === 'failed') {
      // Nothing changed, but the merchant hears of it: the Payment as it stands, under the operation's failure.
      await this.recorder.emit(manager, payment, FAILURE_EVENTS[detail.kind], now, true);
      result = toOperationResult(payment, detail.amount, 'failed');
    } else {
      const decision = redecide(payment, detail);
      const event = applyDecision(payment, decision, now);
      await this.recorder.changed(manager, payment, event, now);
      await this.payments.addOperation(manager, {
        id: uuidv7(),
        paymentId: payment.id,
        kind: decision.kind,
        amountValue: decision.amount.value,
        reference: detail.reference,
        reason: decision.kind === 'refund' ? (detail.reason ?? null) : null,
        actor: ctx.keyId ?? null,
        createdAt: now,
      });
      result = toOperationResult(payment, decision.amount, decision.result);
    }
    await this.idempotency.complete(manager, ctx, result);
    return result;
  }
}

const FAILURE_EVENTS: Readonly<Record<ModificationDetail['kind'], EventType>> = {
  capture: EventTypes.paymentCaptureFailed,
  refund: EventTypes.paymentRefundFailed,
  cancel: EventTypes.paymentCancelFailed,
};

/**
 * The reserved operation decided again on the payment as it is now: the same rules, as of the reservation's
 * time (a hold that ran out since the capture was sent was still valid when the acquirer captured).
 */
function redecide(p: PaymentSnapshot, d: ModificationDetail): Decision {
  switch (d.kind) {
    case 'capture':
      return decideCapture(p, d.amount, new Date(d.decidedAt));
    case 'refund':
      return decideRefund(p, d.amount);
    case 'cancel':
      return decideCancel(p, d.amount);
    default:
      return assertNever(d.kind);
  }
}
