import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  ExportBatch,
  ExportBatchCommand,
  KeylessInquiryCommand,
  KeylessInquiryResponse,
  ListPaymentsQuery,
  PaymentLookupCommand,
  PaymentResponse,
  PaymentsSubjects,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { ExportService } from './export.service';
import { InquiryService } from './inquiry.service';

/** GET /v1/payment/{id}, /v1/payment/inquiry/{paymentCode or id}, /v1/payment?orderCode=. */
@CommandHandler()
export class InquiryHandler {
  constructor(
    private readonly inquiries: InquiryService,
    private readonly exports: ExportService,
  ) {}

  @MessagePattern(PaymentsSubjects.get)
  get(@Caller() ctx: CallerContext, @CommandBody() body: PaymentLookupCommand): Promise<PaymentResponse> {
    return this.inquiries.get(ctx, body.reference);
  }

  @MessagePattern(PaymentsSubjects.inquiry)
  inquiry(@Caller() ctx: CallerContext, @CommandBody() body: PaymentLookupCommand): Promise<PaymentResponse> {
    return this.inquiries.inquire(ctx, body.reference);
  }

  /** Keyless: the command names the environment; the context carries no merchant and is not read. */
  @MessagePattern(PaymentsSubjects.keylessInquiry)
  inquireKeyless(@CommandBody() body: KeylessInquiryCommand): Promise<KeylessInquiryResponse> {
    return this.inquiries.inquireKeyless(body);
  }

  @MessagePattern(PaymentsSubjects.list)
  list(@Caller() ctx: CallerContext, @CommandBody() query: ListPaymentsQuery): Promise<PaymentResponse[]> {
    return this.inquiries.list(ctx, query);
  }

  @MessagePattern(PaymentsSubjects.exportPayments)
  exportPayments(@Caller() ctx: CallerContext, @CommandBody() body: ExportBatchCommand): Promise<ExportBatch> {
    return this.exports.payments(ctx, body);
  }

  @MessagePattern(PaymentsSubjects.exportRefunds)
  exportRefunds(@Caller() ctx: CallerContext, @CommandBody() body: ExportBatchCommand): Promise<ExportBatch> {
    return this.exports.refunds(ctx, body);
  }
}
