import { OperationResult, OperationStatus, PaymentResponse, RefundActorView, RefundView } from '@app/contracts';
import { AmountJson } from '@app/money';
import { apiStatus } from './payment-state';
import { PaymentEntity, PaymentOperationEntity } from './payment.entity';

const amountOf = (p: PaymentEntity, value: number): AmountJson => ({
  currency: p.currency,
  value,
  exponent: p.exponent,
});

/** The Payment as answered and as carried in `payment.*` events; absent parts are left out. */
export function toPaymentResponse(p: PaymentEntity): PaymentResponse {
  const view: PaymentResponse = {
    id: p.id,
    status: apiStatus(p.status),
    paymentCode: p.paymentCode,
    orderCode: p.orderCode,
    merchantCode: p.merchantCode,
    paymentMethod: p.paymentMethod,
    connectionCode: p.connectionCode,
    connectionName: p.connectionName,
    amount: amountOf(p, p.amountValue),
    amountCaptured: amountOf(p, p.amountCaptured),
    amountRefunded: amountOf(p, p.amountRefunded),
    metadata: p.metadata ?? {},
    createdAt: p.createdAt.toISOString(),
  };
  if (p.authorizationCode) view.autorizationCode = p.authorizationCode;
  if (p.card) view.card = p.card;
  if (p.apm) view.apm = p.apm;
  if (p.token) view.token = p.token;
  if (p.actionRequired) view.actionRequired = p.actionRequired;
  if (p.refusalCode) view.refusalCode = p.refusalCode;
  if (p.threeDSecure) view.threeDSecure = p.threeDSecure;
  if (p.attempts?.length > 1) {
    view.cascade = p.attempts.map((a) => ({
      connectionCode: a.connectionCode,
      outcome: a.outcome,
      ...(a.reasonCode ? { reasonCode: a.reasonCode } : {}),
    }));
  }
  return view;
}

export function toOperationResult(p: PaymentEntity, amount: AmountJson, status: OperationStatus): OperationResult {
  return {
    id: p.id,
    merchantCode: p.merchantCode,
    orderCode: p.orderCode,
    paymentCode: p.paymentCode,
    amount,
    status,
  };
}

const DASHBOARD_ACTOR = 'dashboard:';

/** Who made an operation, from the caller's key id as recorded. */
export function actorView(actor: string | null): RefundActorView | null {
  if (!actor) return null;
  if (actor.startsWith(DASHBOARD_ACTOR)) return { type: 'dashboard_user', id: actor.slice(DASHBOARD_ACTOR.length) };
  return { type: 'api_key', id: actor };
}

export function toRefundView(p: PaymentEntity, o: PaymentOperationEntity): RefundView {
  return {
    id: o.id,
    amount: amountOf(p, o.amountValue),
    reason: o.reason,
    reference: o.reference,
    refundedBy: actorView(o.actor),
    createdAt: o.createdAt.toISOString(),
  };
}

/** The Payment as a read answers it: with its refunds, oldest first. */
export function toPaymentRead(p: PaymentEntity, operations: PaymentOperationEntity[]): PaymentResponse {
  const refunds = operations.filter((o) => o.paymentId === p.id).map((o) => toRefundView(p, o));
  return { ...toPaymentResponse(p), refunds };
}
