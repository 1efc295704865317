import { Injectable } from '@nestjs/common';
import { CallerContext, ListPaymentsQuery, PaymentResponse } from '@app/contracts';
import { PaymentRepository } from '../payment/payment.repository';
import { toPaymentResponse } from '../payment/payment.view';

/** Reads of payments, always scoped to the caller's merchant and environment (else 404). */
@Injectable()
export class InquiryService {
  constructor(private readonly payments: PaymentRepository) {}

  async get(ctx: CallerContext, id: string): Promise<PaymentResponse> {
    return toPaymentResponse(await this.payments.get(ctx, id));
  }

  async inquire(ctx: CallerContext, reference: string): Promise<PaymentResponse> {
    return toPaymentResponse(await this.payments.getByReference(ctx, reference));
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
