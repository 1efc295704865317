import { Injectable } from '@nestjs/common';
import {
  CallerContext,
  KeylessInquiryCommand,
  KeylessInquiryResponse,
  ListPaymentsQuery,
  PaymentResponse,
} from '@app/contracts';
import { apiStatus } from '../payment/payment-state';
import { PaymentRepository } from '../payment/payment.repository';
import { toPaymentResponse } from '../payment/payment.view';

/** Reads of payments, scoped to the caller's merchant and environment (else 404); the keyless one to its environment. */
@Injectable()
export class InquiryService {
  constructor(private readonly payments: PaymentRepository) {}

  async get(ctx: CallerContext, id: string): Promise<PaymentResponse> {
    return toPaymentResponse(await this.payments.get(ctx, id));
  }

  async inquire(ctx: CallerContext, reference: string): Promise<PaymentResponse> {
    return toPaymentResponse(await this.payments.getByReference(ctx, reference));
  }

  /** Without a key: only what a plugin needs to refund by paymentCode, and only for an unambiguous code. */
  async inquireKeyless(command: KeylessInquiryCommand): Promise<KeylessInquiryResponse> {
    const p = await this.payments.getOnlyByPaymentCode(command.environment, command.paymentCode);
    return { id: p.id, paymentCode: p.paymentCode, orderCode: p.orderCode, status: apiStatus(p.status) };
  }

  async list(ctx: CallerContext, query: ListPaymentsQuery): Promise<PaymentResponse[]> {
    const rows = await this.payments.list(ctx, {
      orderCode: query.orderCode,
      limit: query.limit ?? 20,
      startingAfter: query.startingAfter,
    });
    return rows.map(toPaymentResponse);
  }
}
