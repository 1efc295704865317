import { Audited } from '../audit/audited';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  CancelOrRefundRequest,
  CancelRequest,
  CaptureRequest,
  OperationResult,
  PaymentsSubjects,
  RefundRequest,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { PrivateRoute } from '../auth/caller.decorator';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { MONEY_OPERATION, PaymentErrors } from './payment-errors';
import { RequirePermission } from '../auth/permission';

const NOT_FOUND = { NOT_FOUND: 'no such payment for this merchant and environment' };
/** Capture, refund and cancel name an amount; cancel_or_refund reverses whatever is left. */
const AMOUNT_ERRORS = ['AMOUNT_EXCEEDS_AVAILABLE', 'CURRENCY_MISMATCH', 'INVALID_EXPONENT'] as const;

/** Operations on an existing payment, addressed by its id (never orderCode or paymentCode). */
@ApiTags('payments')
@Controller('v1/payment/:id')
export class PaymentOperationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('capture')
  @Audited('payment.captured')
  @RequirePermission('money')
  @HttpCode(200)
  @PrivateRoute()
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Capture an authorization once, in full or in part (the rest of the hold is released)' })
  @ApiOkResponse({ type: OperationResult })
  @PaymentErrors(...MONEY_OPERATION, NOT_FOUND, 'INVALID_STATE', 'AUTHORIZATION_EXPIRED', ...AMOUNT_ERRORS)
  capture(
    @Param('id') id: string,
    @Body() body: CaptureRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<OperationResult> {
    return this.rpc.send<OperationResult>(PaymentsSubjects.capture, caller, { ...body, id });
  }

  @Post('refund')
  @Audited('payment.refunded')
  @RequirePermission('refund')
  @HttpCode(200)
  @PrivateRoute()
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Refund a captured payment, repeatedly while the total stays within the captured amount' })
  @ApiOkResponse({ type: OperationResult })
  @PaymentErrors(...MONEY_OPERATION, NOT_FOUND, 'INVALID_STATE', 'AUTHORIZATION_EXPIRED', ...AMOUNT_ERRORS)
  refund(
    @Param('id') id: string,
    @Body() body: RefundRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<OperationResult> {
    return this.rpc.send<OperationResult>(PaymentsSubjects.refund, caller, { ...body, id });
  }

  @Post('cancel')
  @Audited('payment.cancelled')
  @RequirePermission('money')
  @HttpCode(200)
  @PrivateRoute()
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Void an authorization: the whole hold is released' })
  @ApiOkResponse({ type: OperationResult })
  @PaymentErrors(...MONEY_OPERATION, NOT_FOUND, 'INVALID_STATE', 'AUTHORIZATION_EXPIRED', ...AMOUNT_ERRORS)
  cancel(
    @Param('id') id: string,
    @Body() body: CancelRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<OperationResult> {
    return this.rpc.send<OperationResult>(PaymentsSubjects.cancel, caller, { ...body, id });
  }

  @Post('cancel_or_refund')
  @Audited('payment.cancelled_or_refunded')
  @RequirePermission('money')
  @HttpCode(200)
  @PrivateRoute()
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Reverse the whole payment: cancel an authorization or refund what is left of a capture' })
  @ApiOkResponse({ type: OperationResult })
  @PaymentErrors(...MONEY_OPERATION, NOT_FOUND, 'INVALID_STATE', 'AUTHORIZATION_EXPIRED')
  cancelOrRefund(
    @Param('id') id: string,
    @Body() body: CancelOrRefundRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<OperationResult> {
    return this.rpc.send<OperationResult>(PaymentsSubjects.cancelOrRefund, caller, { ...body, id });
  }
}
