import { OperationResult, OperationStatus, PaymentResponse } from '@app/contracts';
import { AmountJson } from '@app/money';
import { apiStatus } from './payment-state';
import { PaymentEntity } from './payment.entity';

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
