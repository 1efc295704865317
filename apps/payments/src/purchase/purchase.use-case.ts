import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock, uuidv7 } from '@app/clock';
import { CallerContext, PaymentMethod, PaymentResponse, PurchaseRequest } from '@app/contracts';
import { Amount } from '@app/money';
import { cardView } from '../card/card';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { AcquirerOutcome } from '../connector/connector';
import { AcquirerCalls } from '../connector/acquirer-call';
import { ConnectorRegistry } from '../connector/connector.registry';
import { requestReference } from '../connector/request-reference';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { generatePaymentCode } from '../payment/payment-code';
import { PaymentEntity, PaymentIntent } from '../payment/payment.entity';
import { applyOutcome } from '../payment/payment-outcome';
import { PaymentRecorder } from '../payment/payment-recorder';
import { PaymentRepository } from '../payment/payment.repository';
import { ConnectionEntity } from '../routing/connection.entity';
import { RoutingService } from '../routing/routing.service';
import { THREE_DS_PORT, ThreeDsPort } from '../threeds/threeds.port';
import { APM_PORT, ApmPort } from './apm.port';
import { CARD_VAULT_PORT, CardVaultPort } from './card-vault.port';
import { ResolvedCard } from './instrument';
import { InstrumentResolver } from './instrument.resolver';
import { preparePurchase } from './purchase-request';

/**
 * POST /v1/payment/purchase and /authorization: one transaction holds the idempotency key, the order code,
 * the acquirer's answer (with one cascade on a `retry` decline), the payment row and its event.
 */
@Injectable()
export class PurchaseUseCase {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly instruments: InstrumentResolver,
    private readonly routing: RoutingService,
    private readonly connectors: ConnectorRegistry,
    private readonly acquirer: AcquirerCalls,
    private readonly payments: PaymentRepository,
    private readonly recorder: PaymentRecorder,
    private readonly clock: Clock,
    @Inject(THREE_DS_PORT) private readonly threeDs: ThreeDsPort,
    @Inject(APM_PORT) private readonly apm: ApmPort,
    @Inject(CARD_VAULT_PORT) private readonly vault: CardVaultPort,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  async run(ctx: CallerContext, body: PurchaseRequest, intent: PaymentIntent): Promise<PaymentResponse> {
    const { amount, method } = preparePurchase(body, intent);
    // Routing reads happen before the transaction: a transaction never waits for a second pool connection.
    const connections = await this.routing.route(ctx, {
      currency: amount.currency,
      method,
      connectionCode: body.connectionCode,
    });
    return this.idempotency.run(ctx, intent, body, async (manager, requestHash) => {
      const now = this.clock.now(ctx);
      // Date-dependent checks come after the replay check: a replay answers what the original answered.
      if (method !== 'card') this.apm.validate(method, body.apm, body.amount, ctx);
      // Sent together (pipelined); the check runs after the lock is granted, on a fresh snapshot.
      await Promise.all([
        this.payments.lockOrderCode(manager, ctx, body.orderCode),
        this.payments.assertCodesFree(manager, ctx, body.orderCode, body.paymentCode),
      ]);
      const card = method === 'card' ? await this.instruments.resolveInstrument(ctx, body.card!, manager) : undefined;
      const payment = newPayment(ctx, body, intent, method, amount, card, now);
      const outcome = await this.authorize(ctx, requestHash, payment, connections, card, body);
      const event = applyOutcome(payment, 'new', outcome, now, this.config.AUTH_HOLD_DAYS);
      if (outcome.kind === 'approved' && card?.tokenize && body.shopper?.id) {
        payment.token =
          (await this.vault.tokenize(manager, {
            ctx,
            card,
            shopperId: body.shopper.id,
            networkTransactionId: outcome.networkTransactionId,
            networkReferenceId: outcome.networkReferenceId,
            now,
          })) ?? null;
      }
      await this.payments.insert(manager, payment);
      if (await this.openPendingAction(manager, ctx, payment, outcome, body, now, card)) {
        await this.payments.update(manager, payment);
      }
      return this.recorder.emit(manager, payment, event, now);
    });
  }

  /** Tries the connections in order; only a decline whose recovery action is `retry` moves on (cascade). */
  private async authorize(
    ctx: CallerContext,
    requestHash: string | undefined,
    payment: PaymentEntity,
    connections: ConnectionEntity[],
    card: ResolvedCard | undefined,
    body: PurchaseRequest,
  ): Promise<AcquirerOutcome> {
    let outcome: AcquirerOutcome | undefined;
    for (const connection of connections) {
      payment.connectionCode = connection.connectionCode;
      payment.connectionName = connection.connectionName;
      payment.acquirer = connection.acquirer;
      const connector = this.connectors.get(connection.acquirer);
      const about = { acquirer: connection.acquirer, operation: payment.intent, paymentId: payment.id };
      outcome = await this.acquirer.call(about, () =>
        connector.authorize({
          paymentId: payment.id,
          reference: requestReference(ctx, payment.intent, requestHash, connection.connectionCode),
          amount: { currency: payment.currency, value: payment.amountValue, exponent: payment.exponent },
          capture: payment.intent === 'purchase',
          paymentMethod: payment.paymentMethod as PaymentMethod,
          card,
          initiator: body.card?.cardOnFile?.initiator ?? 'cardholder',
          networkTransactionId: body.card?.networkTransactionId ?? card?.networkTransactionId ?? undefined,
        }),
      );
      payment.attempts.push({
        connectionCode: connection.connectionCode,
        outcome: outcome.kind,
        ...(outcome.kind === 'declined' ? { reasonCode: outcome.refusalCode.reasonCode } : {}),
      });
      if (outcome.kind !== 'declined' || outcome.refusalCode.recoveryAction !== 'retry') break;
    }
    return outcome!;
  }

  /** Lets the 3DS or APM module attach what the shopper must do; true when the payment changed. */
  private async openPendingAction(
    manager: EntityManager,
    ctx: CallerContext,
    payment: PaymentEntity,
    outcome: AcquirerOutcome,
    body: PurchaseRequest,
    now: Date,
    card?: ResolvedCard,
  ): Promise<boolean> {
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
        // A challenged card that asked to be tokenized is vaulted if the resume approves it.
        tokenize: card?.tokenize && body.shopper?.id ? { card, shopperId: body.shopper.id } : undefined,
      });
      payment.actionRequired = action ?? null;
      return action !== undefined;
    }
    if (outcome.kind === 'pending_action' && payment.paymentMethod !== 'card') {
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
      return started.actionRequired !== undefined || started.apm !== undefined;
    }
    return false;
  }
}

function newPayment(
  ctx: CallerContext,
  body: PurchaseRequest,
  intent: PaymentIntent,
  method: PaymentMethod,
  amount: Amount,
  card: ResolvedCard | undefined,
  now: Date,
): PaymentEntity {
  // `status` is set by applyOutcome, through the transition table.
  return Object.assign(new PaymentEntity(), {
    id: uuidv7(),
    merchantCode: ctx.merchantCode,
    environment: ctx.environment,
    paymentCode: body.paymentCode ?? generatePaymentCode(),
    orderCode: body.orderCode,
    intent,
    paymentMethod: method,
    amountValue: amount.value,
    currency: amount.currency,
    exponent: amount.exponent,
    amountCaptured: 0,
    amountRefunded: 0,
    authorizationCode: null,
    acquirerReference: null,
    card: card ? cardView(card) : null,
    cardAddress: card?.cardAddress ?? null,
    cardOnFile: body.card?.cardOnFile ?? null,
    instalments: body.card?.instalments ?? null,
    apm: null,
    token: null,
    actionRequired: null,
    refusalCode: null,
    shopper: body.shopper ?? null,
    webhookUrl: body.webhookUrl ?? null,
    ipAddress: body.ipAddress ?? null,
    threeDsSessionId: body.threeDsSetup?.sessionId ?? null,
    metadata: body.metadata ?? {},
    attempts: [],
    holdExpiresAt: null,
    cancelReason: null,
    createdAt: now,
    updatedAt: now,
  });
}
