import { Injectable } from '@nestjs/common';
import {
  CallerContext,
  keylessContext,
  ListPaymentsQuery,
  PaymentLookupCommand,
  PaymentResponse,
  PaymentsExtrasSubjects,
  PaymentsSubjects,
  PurchaseRequest,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';

/** What payment-links asks of payments over NATS; it never reads payments' tables. */
@Injectable()
export class PaymentsClient {
  constructor(private readonly rpc: RpcClient) {}

  purchase(ctx: CallerContext, body: PurchaseRequest): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse>(PaymentsSubjects.purchase, ctx, body);
  }

  /** The resume of a link payment's 3DS session: the session is the credential and decides the merchant. */
  resume(requestId: string, sessionId: string): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse>(PaymentsExtrasSubjects.resumeLinkPayment, keylessContext(requestId), {
      sessionId,
    });
  }

  /** Every attempt with this order code, newest first. */
  byOrderCode(ctx: CallerContext, orderCode: string): Promise<PaymentResponse[]> {
    return this.rpc.send<PaymentResponse[], ListPaymentsQuery>(PaymentsSubjects.list, ctx, { orderCode });
  }

  get(ctx: CallerContext, id: string): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse, PaymentLookupCommand>(PaymentsSubjects.get, ctx, { reference: id });
  }
}
