import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext, PaymentMethod, PaymentResponse, PurchaseRequest } from '@app/contracts';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { AuthorizationOutcome } from '../connector/provider-connector';
import { IdempotencyService } from '@app/idempotency';
import { applyOutcome } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentEntity } from '../payment/payment.entity';
import { PaymentRepository } from '../payment/payment.repository';
import { AcquirerAttemptRepository } from '../reservation/acquirer-attempt.repository';
import { withoutSimulatedChallenge } from '../threeds/simulated-sessions';
import { THREE_DS_PORT, ThreeDsPort } from '../threeds/threeds.port';
import { APM_PORT, ApmPort } from './apm.port';
import { CARD_VAULT_PORT, CardVaultPort } from '../vault/card-vault.port';
import { ResolvedCard } from '../card/instrument';

/** What the request itself brought, beyond the reserved payment; the recovery sweep has none of it. */
export interface RequestExtras {
  card?: ResolvedCard;
  body?: PurchaseRequest;
  /** The 3DS session id the provider's return URL names (the attempt's). */
  sessionId?: string;
}

/**
 * The record step of a purchase or authorization, in the caller's transaction: the acquirer's answer applied
 * to the reserved payment through the transition table, the 3DS challenge or APM instructions it needs, the
 * vault token of an approved `tokenize`, the payment's event, the Idempotency-Key's answer, and the attempt
 * row settled (the commit fails if the recovery sweep resolved it first).
 */
@Injectable()
export class AuthorizationRecord {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly attempts: AcquirerAttemptRepository,
    private readonly recorder: PaymentRecorder,
    private readonly idempotency: IdempotencyService,
    @Inject(THREE_DS_PORT) private readonly threeDs: ThreeDsPort,
    @Inject(APM_PORT) private readonly apm: ApmPort,
    @Inject(CARD_VAULT_PORT) private readonly vault: CardVaultPort,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  async record(
    manager: EntityManager,
    ctx: CallerContext,
    attemptId: string,
    reserved: PaymentEntity,
    answered: AuthorizationOutcome,
    now: Date,
    extras: RequestExtras = {},
  ): Promise<PaymentResponse> {
    const { card, body } = extras;
    // A grouped transaction runs this again alone when its group failed: each run moves its own copy, so the
    // retry starts from the reserved payment, not from the state the failed run left in memory.
    const payment = Object.assign(new PaymentEntity(), reserved);
    const outcome = withoutSimulatedChallenge(ctx, answered);
    await this.attempts.settle(manager, attemptId);
    // The payment comes into being with the acquirer's answer: its hold, if any, starts then too.
    payment.createdAt = now;
    const event = applyOutcome(payment, outcome, now, this.config.AUTH_HOLD_DAYS);
    if (outcome.kind === 'approved' && card?.tokenize && body?.shopper?.id) {
      payment.token =
        (await this.vault.tokenize(manager, {
          ctx,
          card,
          shopperId: body.shopper.id,
          networkTransactionId: outcome.networkTransactionId,
          networkReferenceId: outcome.networkReferenceId,
          acquirer: payment.acquirer,
          now,
        })) ?? null;
    }
    await this.openPendingAction(manager, ctx, payment, outcome, now, extras);
    await this.payments.record(manager, payment);
    const response = await this.recorder.emit(manager, payment, event, now);
    await this.idempotency.complete(manager, ctx, response);
    return response;
  }

  /** Lets the 3DS or APM module attach what the shopper must do. */
  private async openPendingAction(
    manager: EntityManager,
    ctx: CallerContext,
    payment: PaymentEntity,
    outcome: AuthorizationOutcome,
    now: Date,
    { card, body, sessionId }: RequestExtras,
  ): Promise<void> {
    const amount = { currency: payment.currency, value: payment.amountValue, exponent: payment.exponent };
    if (outcome.kind === 'challenge_required') {
      const action = await this.threeDs.begin(manager, {
        ctx,
        paymentId: payment.id,
        intent: payment.intent,
        connectionCode: payment.connectionCode,
        acquirerReference: outcome.acquirerReference,
        amount,
        maskedCard: payment.card?.cardData.cardNumber ?? '',
        now,
        traceParent: payment.traceParent,
        sessionId,
        providerAction: outcome.action,
        // A challenged card that asked to be tokenized is vaulted if the resume approves it.
        tokenize: card?.tokenize && body?.shopper?.id ? { card, shopperId: body.shopper.id } : undefined,
      });
      payment.actionRequired = action ?? null;
    }
    // A recovered APM payment has no request to draw instructions from: it waits for settlement without them.
    if (outcome.kind === 'pending_action' && payment.paymentMethod !== 'card' && body) {
      const started = await this.apm.begin(manager, {
        ctx,
        paymentId: payment.id,
        method: payment.paymentMethod as Exclude<PaymentMethod, 'card'>,
        apm: body.apm,
        amount,
        acquirerReference: outcome.acquirerReference,
        now,
      });
      payment.actionRequired = started.actionRequired ?? null;
      payment.apm = started.apm ?? null;
    }
  }
}
