import { Environment, PaymentStatus } from '@app/contracts';
import { AmountJson } from '@app/money';
import { AuthorizationOutcome } from '../connector/provider-connector';
import { IdempotentOperation } from '../idempotency/idempotent-operation';
import { OperationKind } from '../payment/payment-money';
import { RoutingAttempt } from '../payment/payment.entity';

/**
 * An acquirer call in flight: reserved in a short transaction before the call, deleted by the transaction that
 * records its answer. One left behind (a crash between the two) is what the recovery sweep resolves, by asking
 * the acquirer about `requestReference`.
 */
export interface AcquirerAttempt {
  id: string;
  paymentId: string;
  merchantCode: string;
  environment: Environment;
  operation: IdempotentOperation | 'resume';
  requestReference: string;
  connectionCode: string;
  acquirer: string;
  idempotencyKey: string | null;
  detail: AttemptDetail;
  /**
   * With tracing on, the W3C traceparent of the request that reserved the attempt (null when off): the recovery
   * sweep's run links to it. Set when the attempt is built outside the request's own context (a grouped
   * purchase's transaction runs in its group's); otherwise the insert takes the active one.
   */
  traceParent?: string | null;
  /** When its call's answer was lost after sending (ConnectorOutcomeUnknown); null while none was. */
  outcomeUnknownAt?: Date | null;
  /** The provider accepted it and settles it by webhook: its reference of the modification (ModificationOutcome `pending`). */
  acceptedReference?: string | null;
}

/** An authorization: the tries before this one of a cascade (a `retry` decline moved on to this connection). */
export interface AuthorizationDetail {
  kind: 'authorize';
  connectionName: string;
  /** The 3DS session a provider's challenge will open, named in the return URL sent with the authorization. */
  sessionId?: string;
  earlier: Array<RoutingAttempt & { declined: AuthorizationOutcome }>;
}

/**
 * A capture, refund or cancel the money rules allowed at `decidedAt`; `reserved` is the payment as it will be
 * once every operation in flight on it is recorded (a new one is checked against that).
 */
export interface ModificationDetail {
  kind: OperationKind;
  amount: AmountJson;
  reference: string | null;
  /** A refund's reason (absent on other operations and on attempts reserved before it was kept). */
  reason?: string | null;
  decidedAt: string;
  reserved: { status: PaymentStatus; amountCaptured: number; amountRefunded: number };
}

/** The acquirer's final answer for a 3DS payment, asked by the resume that used its session up. */
export interface ChallengeDetail {
  kind: 'complete_challenge';
  sessionId: string;
  authenticated: boolean;
  capture: boolean;
  acquirerReference: string;
}

export type AttemptDetail = AuthorizationDetail | ModificationDetail | ChallengeDetail;
