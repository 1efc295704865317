import { CallerContext, PaymentMethod, PurchaseRequest } from '@app/contracts';
import { uuidv7 } from '@app/clock';
import { Amount } from '@app/money';
import { cardView } from '../card/card';
import { generatePaymentCode } from '../payment/payment-code';
import { PaymentEntity, PaymentIntent } from '../payment/payment.entity';
import { PAYMENT_MACHINE } from '../payment/payment-state';
import { ConnectionEntity } from '../routing/connection.entity';
import { ResolvedCard } from '../card/instrument';

/** The payment a purchase or authorization creates, before the acquirer's answer gives it a status. */
export function newPayment(
  ctx: CallerContext,
  body: PurchaseRequest,
  intent: PaymentIntent,
  method: PaymentMethod,
  amount: Amount,
  card: ResolvedCard | undefined,
  connection: ConnectionEntity,
  now: Date,
): PaymentEntity {
  // Reserved until applyOutcome moves it through the transition table.
  return Object.assign(new PaymentEntity(), {
    id: uuidv7(),
    status: PAYMENT_MACHINE.spec.initial,
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
    connectionCode: connection.connectionCode,
    connectionName: connection.connectionName,
    acquirer: connection.acquirer,
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
    threeDSecure: null,
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
