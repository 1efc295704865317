import { MessagePattern } from '@nestjs/microservices';
import {
  CallerContext,
  CancelCommand,
  CancelOrRefundCommand,
  CaptureCommand,
  OperationResult,
  PaymentsSubjects,
  RefundCommand,
} from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { PaymentOperationsService } from './payment-operations.service';

@CommandHandler()
export class PaymentOperationsHandler {
  constructor(private readonly operations: PaymentOperationsService) {}

  @MessagePattern(PaymentsSubjects.capture)
  capture(@Caller() ctx: CallerContext, @CommandBody() body: CaptureCommand): Promise<OperationResult> {
    return this.operations.capture(ctx, body);
  }

  @MessagePattern(PaymentsSubjects.refund)
  refund(@Caller() ctx: CallerContext, @CommandBody() body: RefundCommand): Promise<OperationResult> {
    return this.operations.refund(ctx, body);
  }

  @MessagePattern(PaymentsSubjects.cancel)
  cancel(@Caller() ctx: CallerContext, @CommandBody() body: CancelCommand): Promise<OperationResult> {
    return this.operations.cancel(ctx, body);
  }

  @MessagePattern(PaymentsSubjects.cancelOrRefund)
  cancelOrRefund(@Caller() ctx: CallerContext, @CommandBody() body: CancelOrRefundCommand): Promise<OperationResult> {
    return this.operations.cancelOrRefund(ctx, body);
  }
}
