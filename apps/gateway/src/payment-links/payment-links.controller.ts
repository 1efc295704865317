import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  CreatePaymentLinkRequest,
  ListPaymentLinksCommand,
  ListPaymentLinksQuery,
  MerchantQuery,
  PaymentLinkIdCommand,
  PaymentLinkResponse,
  PaymentLinksSubjects,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { RequirePermission } from '../auth/permission';

const LINKS = forwardedTo('payment-links');
const NO_LINK = { NOT_FOUND: 'no such payment link for this merchant and environment' };

/** Payment links (docs/api.md, Payment links and checkout), forwarded to the payment-links service. */
@ApiTags('payment links')
@Controller('v1/payment-link')
export class PaymentLinksController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @RequirePermission('manage')
  @HttpCode(201)
  @PrivateRoute()
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'Create a payment link',
    description:
      'Defaults: `type` one-time, `amountMode` fixed, not reusable, `expiresAt` 24 hours ahead for a single-use ' +
      'link (none for a reusable one). `url` is the hosted checkout page to share with the payer.',
  })
  @ApiCreatedResponse({ type: PaymentLinkResponse })
  @ApiErrors(LINKS, 'IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED', 'INVALID_EXPONENT', {
    NOT_FOUND: 'subscriptionPlanId is unknown for this merchant and environment',
    INVALID_STATE: 'the plan is inactive or archived',
  })
  create(
    @Body() body: CreatePaymentLinkRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<PaymentLinkResponse> {
    return this.rpc.send<PaymentLinkResponse>(PaymentLinksSubjects.create, caller, body);
  }

  @Get()
  @RequirePermission('read')
  @PrivateRoute()
  @ApiOperation({ summary: 'Payment links, newest first (paged with limit and startingAfter)' })
  @ApiOkResponse({ type: [PaymentLinkResponse] })
  @ApiErrors(LINKS, { NOT_FOUND: '`startingAfter` is not a link of this merchant' })
  list(@Query() query: ListPaymentLinksQuery, @Caller() caller: CallerContext): Promise<PaymentLinkResponse[]> {
    const { merchantCode: _merchantCode, ...filters } = query;
    return this.rpc.send<PaymentLinkResponse[], ListPaymentLinksCommand>(PaymentLinksSubjects.list, caller, filters);
  }

  @Get(':id')
  @RequirePermission('read')
  @PrivateRoute()
  @ApiOperation({ summary: 'A payment link by id (an expired link reads as expired)' })
  @ApiOkResponse({ type: PaymentLinkResponse })
  @ApiErrors(LINKS, NO_LINK)
  get(
    @Param('id') id: string,
    @Query() _query: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<PaymentLinkResponse> {
    return this.rpc.send<PaymentLinkResponse, PaymentLinkIdCommand>(PaymentLinksSubjects.get, caller, { id });
  }

  @Post(':id/cancel')
  @RequirePermission('manage')
  @HttpCode(200)
  @PrivateRoute()
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'Cancel a payment link',
    description: 'The hosted page stops taking payments. An already cancelled link answers 200 unchanged.',
  })
  @ApiOkResponse({ type: PaymentLinkResponse })
  @ApiErrors(LINKS, NO_LINK, 'IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED', {
    INVALID_STATE: 'the link is used or expired',
  })
  cancel(
    @Param('id') id: string,
    @Body() _body: MerchantQuery,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<PaymentLinkResponse> {
    return this.rpc.send<PaymentLinkResponse, PaymentLinkIdCommand>(PaymentLinksSubjects.cancel, caller, { id });
  }
}
