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
import { toPaymentRead } from '../payment/payment.view';
import { PaymentEntity } from '../payment/payment.entity';

/** Reads of payments, scoped to the caller's merchant and environment (else 404); the keyless one to its environment. */
@Injectable()
export class InquiryService {
  constructor(private readonly payments: PaymentRepository) {}

  async get(ctx: CallerContext, id: string): Promise<PaymentResponse> {
    return (await this.withRefunds([await this.payments.get(ctx, id)]))[0];
  }

  async inquire(ctx: CallerContext, reference: string): Promise<PaymentResponse> {
    return (await this.withRefunds([await this.payments.getByReference(ctx, reference)]))[0];
  }

  /** Without a key: only what a plugin needs to refund by paymentCode, and only for an unambiguous code. */
  async inquireKeyless(command: KeylessInquiryCommand): Promise<KeylessInquiryResponse> {
    const p = await this.payments.getOnlyByPaymentCode(command.environment, command.paymentCode);
    return { id: p.id, paymentCode: p.paymentCode, orderCode: p.orderCode, status: apiStatus(p.status) };
  }

  async list(ctx: CallerContext, query: ListPaymentsQuery): Promise<PaymentResponse[]> {
    const { limit, merchantCode: _merchantCode, ...filter } = query;
    return this.withRefunds(await this.payments.list(ctx, { ...filter, limit: limit ?? 20 }));
  }

  private async withRefunds(payments: PaymentEntity[]): Promise<PaymentResponse[]> {
    const refunds = await this.payments.refundsOf(payments.filter((p) => p.amountRefunded > 0).map((p) => p.id));
    return payments.map((p) => toPaymentRead(p, refunds));
  }
}
