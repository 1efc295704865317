import { Injectable } from '@nestjs/common';
import {
  CallerContext,
  CardDataDto,
  NonceDataDto,
  PaymentLookupCommand,
  PaymentResponse,
  PaymentsSubjects,
  PurchaseManyCommand,
  PurchaseManyResponse,
  PurchaseRequest,
  RefusalCodeDto,
  StoredTokenView,
  TokenLookupCommand,
} from '@app/contracts';
import { DomainError, fromRpcError } from '@app/errors';
import { RpcClient } from '@app/messaging';

export interface Charge {
  /** The payments Idempotency-Key of this call (LeasedRun.callKey of the operation). */
  key: string;
  orderCode: string;
  currency: string;
  exponent: number;
  value: number;
  shopperId: string;
  email?: string;
  name?: string;
  metadata?: Record<string, string>;
}

/** One merchant-initiated charge of a `mitMany` call, with its own sandbox clock offset. */
export interface TokenCharge {
  token: string;
  charge: Charge;
  networkTransactionId?: string | null;
  clockOffsetMs?: number;
  /** The connections that declined this charge's previous attempt (a retry): payments tries the others first. */
  declinedLast?: string[];
}

/** The card a customer gives while present: raw card data or an SDK nonce. */
export type PresentCard = { cardData: CardDataDto } | { nonceData: NonceDataDto };

/**
 * "Authentication required": a card that asks for a 3DS challenge cannot enrol without the
 * cardholder's browser, so billing answers it as a decline (402) with this refusal.
 */
export const AUTHENTICATION_REQUIRED: RefusalCodeDto = {
  reasonCode: '1A',
  reason: 'Authentication required',
  originalReasonCode: '1A',
  originalReason: 'AUTHENTICATION_REQUIRED',
  recoveryAction: 'switch_method',
};

/**
 * Billing's side of the payments service: every charge, verification and token read goes over NATS with the
 * caller's context (merchant, environment, sandbox clock) and an Idempotency-Key of its own; billing never
 * reads payments' tables.
 */
@Injectable()
export class PaymentsClient {
  constructor(private readonly rpc: RpcClient) {}

  /** A cardholder-initiated charge that also vaults the card (one call: a decline leaves no token). */
  cit(ctx: CallerContext, card: PresentCard, c: Charge): Promise<PaymentResponse> {
    return this.send(PaymentsSubjects.purchase, ctx, c, this.citBody(card, c));
  }

  /** A zero-value authorization that verifies and vaults the card when nothing is charged now. */
  verify(ctx: CallerContext, card: PresentCard, c: Omit<Charge, 'value'>): Promise<PaymentResponse> {
    return this.send(PaymentsSubjects.authorize, ctx, { ...c, value: 0 }, this.citBody(card, { ...c, value: 0 }));
  }

  /** A merchant-initiated charge of a vault token (cycle 1 in record mode, upgrades, renewals). */
  mit(ctx: CallerContext, token: string, c: Charge, networkTransactionId?: string | null): Promise<PaymentResponse> {
    return this.send(PaymentsSubjects.purchase, ctx, c, this.mitBody(token, c, networkTransactionId));
  }

  /**
   * Several merchant-initiated charges of one merchant and environment in one message (`purchaseMany`): each
   * is the charge `mit` would make, with its own key, and answers on its own, the payment or the DomainError
   * it alone would have thrown. A transport failure (timeout, no payments service) throws for all of them.
   */
  async mitMany(ctx: CallerContext, charges: TokenCharge[]): Promise<Array<PaymentResponse | DomainError>> {
    const { idempotencyKey: _key, clockOffsetMs: _offset, ...caller } = ctx;
    const { results } = await this.rpc.send<PurchaseManyResponse, PurchaseManyCommand>(
      PaymentsSubjects.purchaseMany,
      caller,
      {
        items: charges.map((c) => ({
          idempotencyKey: c.charge.key,
          ...(c.clockOffsetMs ? { clockOffsetMs: c.clockOffsetMs } : {}),
          ...(c.declinedLast?.length ? { declinedLast: c.declinedLast } : {}),
          body: { ...this.mitBody(c.token, c.charge, c.networkTransactionId), merchantCode: ctx.merchantCode },
        })),
      },
    );
    return results.map((r) => ('response' in r ? r.response : fromRpcError(r.err)));
  }

  payment(ctx: CallerContext, id: string): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse, PaymentLookupCommand>(PaymentsSubjects.get, keyless(ctx), { reference: id });
  }

  token(ctx: CallerContext, token: string): Promise<StoredTokenView> {
    return this.rpc.send<StoredTokenView, TokenLookupCommand>(PaymentsSubjects.getToken, keyless(ctx), { token });
  }

  /** Best effort: gives back a charge whose subscription could not be recorded. */
  /**
   * Records what a payment already paid; when the record fails (the subscription changed meanwhile, say) the
   * payment is given back under `reverseKey`, and the failure stands.
   */
  async recordedOrReversed<T>(
    ctx: CallerContext,
    paymentId: string | undefined,
    reverseKey: string,
    record: () => Promise<T>,
  ): Promise<T> {
    try {
      return await record();
    } catch (e) {
      if (paymentId) await this.reverse(ctx, paymentId, reverseKey);
      throw e;
    }
  }

  async reverse(ctx: CallerContext, paymentId: string, key: string): Promise<void> {
    await this.rpc
      .send(
        PaymentsSubjects.cancelOrRefund,
        { ...ctx, idempotencyKey: key },
        { id: paymentId, merchantCode: ctx.merchantCode },
      )
      .catch(() => undefined);
  }

  private citBody(card: PresentCard, c: Charge): PurchaseRequest {
    const instrument =
      'cardData' in card
        ? { cardData: { ...card.cardData, tokenize: true } }
        : { nonceData: { ...card.nonceData, tokenize: true } };
    return { ...this.base(c), card: { ...instrument, cardOnFile: { type: 'recurring', initiator: 'cardholder' } } };
  }

  private mitBody(token: string, c: Charge, networkTransactionId?: string | null): PurchaseRequest {
    return {
      ...this.base(c),
      card: {
        tokenData: { token },
        cardOnFile: { type: 'recurring', initiator: 'merchant' },
        ...(networkTransactionId ? { networkTransactionId } : {}),
      },
    };
  }

  private base(c: Charge): PurchaseRequest {
    return {
      merchantCode: '',
      orderCode: c.orderCode,
      amount: { currency: c.currency, value: c.value, exponent: c.exponent },
      shopper: { id: c.shopperId, ...(c.email ? { email: c.email } : {}), ...(c.name ? { name: c.name } : {}) },
      ...(c.metadata && Object.keys(c.metadata).length ? { metadata: c.metadata } : {}),
    };
  }

  private send(subject: string, ctx: CallerContext, c: Charge, body: PurchaseRequest): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse>(
      subject,
      { ...ctx, idempotencyKey: c.key },
      { ...body, merchantCode: ctx.merchantCode },
    );
  }
}

const keyless = (ctx: CallerContext): CallerContext => {
  const { idempotencyKey: _key, ...rest } = ctx;
  return rest;
};

/**
 * An approved charge or verification, or 402 PAYMENT_DECLINED carrying `paymentId` and `refusalCode`: a
 * decline, a processing failure (no refusalCode) or a card that wants a 3DS challenge.
 */
export function approvedOrDeclined(payment: PaymentResponse, param = 'card'): PaymentResponse {
  if (payment.status === 'captured' || payment.status === 'authorized') return payment;
  const refusalCode =
    payment.status === 'pending_3ds' || payment.status === 'pending_action'
      ? AUTHENTICATION_REQUIRED
      : (payment.refusalCode ?? null);
  const why = refusalCode ? `${refusalCode.reasonCode} ${refusalCode.reason}` : payment.status;
  throw new DomainError('PAYMENT_DECLINED', `The payment was declined (${why})`, param, {
    paymentId: payment.id,
    refusalCode,
  });
}
