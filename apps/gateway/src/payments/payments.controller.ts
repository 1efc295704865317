import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  CallerContext,
  ENVIRONMENTS,
  KeylessInquiryCommand,
  KeylessInquiryResponse,
  keylessContext,
  ListPaymentsQuery,
  MerchantQuery,
  PaymentLookupCommand,
  PaymentResponse,
  PaymentsSubjects,
  PurchaseRequest,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { InquiryAccess, InquiryCaller, KeylessInquiryGuard } from './keyless-inquiry';
import { MONEY_OPERATION, PaymentErrors } from './payment-errors';
import { RequirePermission } from '../auth/permission';
import { ForwardedBody } from '../http/forwarded-body';

/** What creating a payment can answer besides a decline (a 200 with status declined). */
const CREATE_ERRORS = [
  ...MONEY_OPERATION,
  { NOT_FOUND: 'unknown connectionCode, nonce or token' },
  'DUPLICATE_ORDER_CODE',
  'DUPLICATE_PAYMENT_CODE',
  'INVALID_EXPONENT',
  'NO_CONNECTION',
] as const;

/** Where a sandbox key's answer comes from, on the routes that take a card. */
const SANDBOX_CARDS_NOTE =
  'With a sandbox key the test card decides the answer (approved, declined with a refusal code, a 3DS challenge, ' +
  'a failing capture…): the list is under `card.cardData.cardNumber`, and docs/testing.md says which flows each ' +
  'card affects. An APM payment (`paymentMethod` pix, boleto or ach) waits in `pending_action` until it is ' +
  'settled: POST /v1/sandbox/payment/{id}/settle.';

/** Card and APM payments: creation and inquiry. Declines are answers (200, status declined), not errors. */
@ApiTags('payments')
@Controller('v1/payment')
export class PaymentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('purchase')
  @RequirePermission('money')
  @HttpCode(200)
  @PrivateRoute()
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'Authorize and capture in one call',
    description: SANDBOX_CARDS_NOTE,
  })
  @ApiBody({ type: PurchaseRequest })
  @ApiOkResponse({ type: PaymentResponse })
  @PaymentErrors(...CREATE_ERRORS)
  purchase(
    @ForwardedBody(PurchaseRequest) body: PurchaseRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse>(PaymentsSubjects.purchase, caller, body);
  }

  @Post('authorization')
  @RequirePermission('money')
  @HttpCode(200)
  @PrivateRoute()
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'Hold funds for a later capture; an amount of 0 verifies the card',
    description: SANDBOX_CARDS_NOTE,
  })
  @ApiBody({ type: PurchaseRequest })
  @ApiOkResponse({ type: PaymentResponse })
  @PaymentErrors(...CREATE_ERRORS)
  authorization(
    @ForwardedBody(PurchaseRequest) body: PurchaseRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse>(PaymentsSubjects.authorize, caller, body);
  }

  @Get()
  @RequirePermission('read')
  @PrivateRoute()
  @ApiOperation({ summary: 'Payments, newest first: every attempt of an orderCode, or all of them (paged)' })
  @ApiOkResponse({ type: [PaymentResponse] })
  @PaymentErrors({ NOT_FOUND: '`startingAfter` is not a payment of this merchant and environment' })
  list(@Query() query: ListPaymentsQuery, @Caller() caller: CallerContext): Promise<PaymentResponse[]> {
    const { merchantCode: _merchantCode, ...filters } = query;
    return this.rpc.send<PaymentResponse[]>(PaymentsSubjects.list, caller, filters);
  }

  @Get('inquiry/:reference')
  @RequirePermission('read')
  @UseGuards(KeylessInquiryGuard)
  // The empty requirement (listed after the key): the keyless inquiry, with X-Environment and no Authorization.
  @ApiSecurity({})
  @ApiBearerAuth('privateKey')
  @ApiExtraModels(PaymentResponse, KeylessInquiryResponse)
  @ApiHeader({
    name: 'X-Environment',
    required: false,
    enum: ENVIRONMENTS,
    description: 'Without a key only: the environment to look the paymentCode up in',
  })
  @ApiOperation({
    summary: 'A payment by its paymentCode or its id',
    description:
      'With a private key: the payment (PaymentResponse), by paymentCode or id. Without a key but with ' +
      "`X-Environment` (how the provider's plugins look up the payment they refund, unless the deployment turned " +
      'it off, for production alone or for both): only `id`, `paymentCode`, `orderCode` and `status` ' +
      '(KeylessInquiryResponse), by paymentCode only (a code names one payment per environment, across ' +
      'merchants); limited per client address, per code and in all (429).',
  })
  @ApiOkResponse({
    schema: { anyOf: [{ $ref: getSchemaPath(PaymentResponse) }, { $ref: getSchemaPath(KeylessInquiryResponse) }] },
  })
  @PaymentErrors(
    { NOT_FOUND: 'no such payment for this merchant and environment; without a key, no such paymentCode' },
    { VALIDATION_FAILED: 'without a key: `X-Environment` is not sandbox or production' },
  )
  inquiry(
    @Param('reference') reference: string,
    @Query() _query: MerchantQuery,
    @InquiryCaller() access: InquiryAccess,
  ): Promise<PaymentResponse | KeylessInquiryResponse> {
    if (access.keyless) {
      const command: KeylessInquiryCommand = { environment: access.environment, paymentCode: reference };
      return this.rpc.send(PaymentsSubjects.keylessInquiry, keylessContext(access.requestId), command);
    }
    return this.rpc.send<PaymentResponse, PaymentLookupCommand>(PaymentsSubjects.inquiry, access.caller, {
      reference,
    });
  }

  @Get(':id')
  @RequirePermission('read')
  @PrivateRoute()
  @ApiOperation({ summary: 'A payment by id' })
  @ApiOkResponse({ type: PaymentResponse })
  @PaymentErrors({ NOT_FOUND: 'no such payment for this merchant and environment' })
  get(
    @Param('id') id: string,
    @Query() _query: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse, PaymentLookupCommand>(PaymentsSubjects.get, caller, { reference: id });
  }
}
