import { Inject, Injectable } from '@nestjs/common';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { applyOutcome } from '../payment/payment-outcome';
import { EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { AuthorizationOutcome, ModificationOutcome, ProviderNotification } from '../connector/provider-connector';
import { OperationKind } from '../payment/payment-money';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository } from '../payment/payment.repository';
import { move, PaymentTrigger } from '../payment/payment-state';
import { PaymentEntity } from '../payment/payment.entity';
import { AcquirerAttempt } from '../reservation/acquirer-attempt';
import { AcquirerAttemptRepository } from '../reservation/acquirer-attempt.repository';
import { AttemptRecorder } from '../recovery/attempt-recorder';
import { ConnectionEntity } from '../routing/connection.entity';
import { ProviderWebhookEvents } from './provider-webhook-events.repository';

/** What one event did, kept with it (provider_webhook_events.applied). */
export type Applied = 'recorded' | 'moved' | 'already_recorded' | 'unknown_payment' | 'ignored';

/** The modification an event is about, and whether the provider says it went through. */
const MODIFICATIONS: Partial<Record<ProviderNotification['kind'], { kind: OperationKind; failed?: true }>> = {
  capture: { kind: 'capture' },
  capture_failed: { kind: 'capture', failed: true },
  refund: { kind: 'refund' },
  refund_failed: { kind: 'refund', failed: true },
  cancellation: { kind: 'cancel' },
};

/**
 * Applies one verified provider event to our records, in the caller's transaction. An event about a call still
 * in flight (its answer lost: ConnectorOutcomeUnknown; or a capture, refund or cancel the provider accepted for
 * later) records that call's answer exactly as the call would have (AttemptRecorder: the payment's change, its
 * event, the Idempotency-Key's answer). An event about something already recorded moves the payment through
 * the transition table where the provider reports a change of its own: a capture or refund that failed after
 * all, an authorization it cancelled, a chargeback. Every change emits our event through the outbox.
 */
@Injectable()
export class NotificationSettlement {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly attempts: AcquirerAttemptRepository,
    private readonly events: ProviderWebhookEvents,
    private readonly attemptRecorder: AttemptRecorder,
    private readonly recorder: PaymentRecorder,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  async apply(
    m: EntityManager,
    connection: ConnectionEntity,
    n: ProviderNotification,
    now: Date,
  ): Promise<{ applied: Applied; paymentId: string | null }> {
    const scope = { merchantCode: connection.merchantCode, environment: connection.environment };
    const byReference = n.merchantReference
      ? await this.attempts.byReference(m, { ...scope, connectionCode: connection.connectionCode }, n.merchantReference)
      : undefined;
    const paymentId =
      byReference?.paymentId ??
      (await this.events.paymentId(m, { ...scope, acquirer: connection.acquirer }, n.acquirerReference));
    if (!paymentId) return { applied: 'unknown_payment', paymentId: null };
    const applied = await this.applyTo(m, paymentId, byReference, n, now, scope);
    return { applied, paymentId };
  }

  private async applyTo(
    m: EntityManager,
    paymentId: string,
    byReference: AcquirerAttempt | undefined,
    n: ProviderNotification,
    now: Date,
    scope: Pick<CallerContext, 'merchantCode' | 'environment'>,
  ): Promise<Applied> {
    if (n.kind === 'authorisation') {
      const attempt = byReference ?? (await this.attempts.ofPayment(m, paymentId));
      if (!attempt || (attempt.detail.kind !== 'authorize' && attempt.detail.kind !== 'complete_challenge')) {
        return this.settlePending(m, await this.payments.lock(m, scope, paymentId), n, now);
      }
      await this.attemptRecorder.record(m, contextOf(attempt), attempt, authorization(n), now);
      return 'recorded';
    }
    const modification = MODIFICATIONS[n.kind];
    if (modification) {
      const success = n.success && !modification.failed;
      const attempt = await this.attempts.modificationOf(m, paymentId, modification.kind, n.modificationReference);
      if (attempt) {
        const answer: ModificationOutcome = success
          ? { kind: 'succeeded', providerReference: n.modificationReference }
          : {
              kind: 'failed',
              providerReference: n.modificationReference,
              message: n.reason ?? 'Refused by the provider',
            };
        await this.attemptRecorder.record(m, contextOf(attempt), attempt, answer, now);
        return 'recorded';
      }
      const payment = await this.payments.lock(m, scope, paymentId);
      return this.providerChange(m, payment, modification.kind, success, n, now);
    }
    if (n.kind === 'chargeback' && n.success) {
      const payment = await this.payments.lock(m, scope, paymentId);
      return this.moveBy(m, payment, 'charge_back', now);
    }
    return 'ignored';
  }

  /**
   * The provider's final answer for a payment still waiting for the shopper (its 3DS finished at the provider,
   * the shopper never came back): recorded as the resume would have. Anything else was recorded already.
   */
  private async settlePending(
    m: EntityManager,
    payment: PaymentEntity,
    n: ProviderNotification,
    now: Date,
  ): Promise<Applied> {
    const outcome = authorization(n);
    const waiting = payment.status === 'pending_3ds' || (payment.status === 'pending_action' && n.success);
    if (!waiting || (outcome.kind === 'failed' && payment.status !== 'pending_3ds')) return 'already_recorded';
    const event = applyOutcome(payment, outcome, now, this.config.AUTH_HOLD_DAYS);
    await this.recorder.changed(m, payment, event, now);
    return 'moved';
  }

  /** A change the provider made or reports after it answered us: the payment follows it. */
  private providerChange(
    m: EntityManager,
    payment: PaymentEntity,
    kind: OperationKind,
    success: boolean,
    n: ProviderNotification,
    now: Date,
  ): Promise<Applied> {
    if (kind === 'cancel' && success && payment.status === 'authorized') {
      payment.cancelReason = 'provider';
      payment.holdExpiresAt = null;
      return this.moveBy(m, payment, 'cancel_at_provider', now);
    }
    if (success) return Promise.resolve('already_recorded');
    const value = n.amount?.value;
    if (kind === 'capture' && payment.status === 'captured' && payment.amountRefunded === 0) {
      payment.amountCaptured = 0;
      return this.moveBy(m, payment, 'reverse_capture', now);
    }
    if (kind === 'refund' && value !== undefined && value > 0 && payment.amountRefunded >= value) {
      payment.amountRefunded -= value;
      return this.moveBy(m, payment, 'reverse_refund', now);
    }
    return Promise.resolve('ignored');
  }

  private async moveBy(m: EntityManager, payment: PaymentEntity, trigger: PaymentTrigger, now: Date): Promise<Applied> {
    payment.updatedAt = now;
    const event = move(payment, trigger);
    await this.recorder.changed(m, payment, event, now);
    return 'moved';
  }
}

/** The context the call of an attempt had: its merchant, environment and Idempotency-Key. */
function contextOf(a: AcquirerAttempt): CallerContext {
  return {
    requestId: `provider-webhook-${a.id}`,
    merchantCode: a.merchantCode,
    environment: a.environment,
    idempotencyKey: a.idempotencyKey ?? undefined,
  };
}

/** An AUTHORISATION event as the authorization call would have answered; details it lacks stay empty. */
function authorization(n: ProviderNotification): AuthorizationOutcome {
  if (n.success) {
    return {
      kind: 'approved',
      acquirerReference: n.acquirerReference,
      authorizationCode: '',
      networkTransactionId: '',
      networkReferenceId: '',
    };
  }
  return n.refusalCode
    ? { kind: 'declined', acquirerReference: n.acquirerReference, refusalCode: n.refusalCode }
    : { kind: 'failed', acquirerReference: n.acquirerReference, message: n.reason ?? 'Refused by the provider' };
}
