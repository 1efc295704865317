import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BillingSubjects,
  CallerContext,
  ChangePlanRequest,
  CreatedSubscriptionView,
  CreateSubscriptionRequest,
  InvoiceView,
  ListInvoicesQuery,
  ListSubscriptionsQuery,
  MerchantQuery,
  MerchantBody,
  PaymentMethodRequest,
  SubscriptionView,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { BillingErrors, CHARGES, IDEMPOTENT } from './billing-errors';
import { RequirePermission } from '../auth/permission';

const NO_SUBSCRIPTION = { NOT_FOUND: 'no such subscription for this merchant and environment' };

/** Subscriptions, their operations and invoices (docs/api.md), served by the billing service. */
@ApiTags('billing')
@Controller('v1/subscription')
@PrivateRoute()
export class SubscriptionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @RequirePermission('money')
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'Enrol a customer: CIT mode (cardData or nonceData) or record mode (tokenData)',
    description: 'Status pending (future startAt), trialing (plan trial) or active (cycle 1 charged now).',
  })
  @ApiCreatedResponse({ type: CreatedSubscriptionView })
  @BillingErrors(...IDEMPOTENT, CHARGES, {
    NOT_FOUND: 'unknown plan, token, nonce, firstPaymentId or parent subscription',
    INVALID_STATE: 'the plan is archived or inactive, or the parent subscription is cancelled',
    CURRENCY_MISMATCH: 'the payment `firstPaymentId` names is in another currency than the plan',
  })
  create(
    @Body() body: CreateSubscriptionRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<CreatedSubscriptionView> {
    return this.rpc.send<CreatedSubscriptionView>(BillingSubjects.createSubscription, caller, body);
  }

  @Get()
  @RequirePermission('read')
  @ApiOperation({ summary: 'Subscriptions, newest first, filtered by planId, status or customerEmail' })
  @ApiOkResponse({ type: [SubscriptionView] })
  @BillingErrors()
  list(@Query() query: ListSubscriptionsQuery, @Caller() caller: CallerContext): Promise<SubscriptionView[]> {
    const { merchantCode: _merchantCode, ...filters } = query;
    return this.rpc.send<SubscriptionView[]>(BillingSubjects.listSubscriptions, caller, filters);
  }

  @Get('invoice/:id')
  @RequirePermission('read')
  @ApiOperation({ summary: 'One invoice, with the result of every charge attempt' })
  @ApiOkResponse({ type: InvoiceView })
  @BillingErrors({ NOT_FOUND: 'no such invoice for this merchant and environment' })
  invoice(
    @Param('id') id: string,
    @Query() _query: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<InvoiceView> {
    return this.rpc.send<InvoiceView>(BillingSubjects.getInvoice, caller, { id });
  }

  @Get(':id')
  @RequirePermission('read')
  @ApiOperation({ summary: 'A subscription, with its plan embedded' })
  @ApiOkResponse({ type: SubscriptionView })
  @BillingErrors(NO_SUBSCRIPTION)
  get(
    @Param('id') id: string,
    @Query() _query: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<SubscriptionView> {
    return this.rpc.send<SubscriptionView>(BillingSubjects.getSubscription, caller, { id });
  }

  @Get(':id/invoice')
  @RequirePermission('read')
  @ApiOperation({ summary: 'A subscription’s invoices, newest first' })
  @ApiOkResponse({ type: [InvoiceView] })
  @BillingErrors(NO_SUBSCRIPTION)
  invoices(
    @Param('id') id: string,
    @Query() query: ListInvoicesQuery,
    @Caller() caller: CallerContext,
  ): Promise<InvoiceView[]> {
    const { merchantCode: _merchantCode, ...page } = query;
    return this.rpc.send<InvoiceView[]>(BillingSubjects.listInvoices, caller, { ...page, id });
  }

  @Post(':id/cancel')
  @RequirePermission('manage')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Cancel for good: open invoices are voided, subscription.cancelled fires' })
  @ApiOkResponse({ type: SubscriptionView })
  @BillingErrors(...IDEMPOTENT, NO_SUBSCRIPTION, 'INVALID_STATE')
  cancel(
    @Param('id') id: string,
    @Body() _body: MerchantBody,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<SubscriptionView> {
    return this.rpc.send<SubscriptionView>(BillingSubjects.cancelSubscription, caller, { id });
  }

  @Post(':id/pause')
  @RequirePermission('manage')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Stop billing (from active, trialing or past_due)' })
  @ApiOkResponse({ type: SubscriptionView })
  @BillingErrors(...IDEMPOTENT, NO_SUBSCRIPTION, 'INVALID_STATE')
  pause(
    @Param('id') id: string,
    @Body() _body: MerchantBody,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<SubscriptionView> {
    return this.rpc.send<SubscriptionView>(BillingSubjects.pauseSubscription, caller, { id });
  }

  @Post(':id/resume')
  @RequirePermission('manage')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Resume a paused subscription: active, next charge one interval from now' })
  @ApiOkResponse({ type: SubscriptionView })
  @BillingErrors(...IDEMPOTENT, NO_SUBSCRIPTION, 'INVALID_STATE')
  resume(
    @Param('id') id: string,
    @Body() _body: MerchantBody,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<SubscriptionView> {
    return this.rpc.send<SubscriptionView>(BillingSubjects.resumeSubscription, caller, { id });
  }

  @Post(':id/change-plan')
  @RequirePermission('money')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'Switch plans now (prorated upgrade charged at once, downgrade without refund) or at the next billing',
  })
  @ApiOkResponse({ type: SubscriptionView })
  @BillingErrors(...IDEMPOTENT, CHARGES, 'INVALID_STATE', {
    NOT_FOUND: 'no such subscription or plan for this merchant and environment',
    CURRENCY_MISMATCH: 'the new plan is in another currency',
  })
  changePlan(
    @Param('id') id: string,
    @Body() body: ChangePlanRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<SubscriptionView> {
    return this.rpc.send<SubscriptionView>(BillingSubjects.changePlan, caller, { ...body, id });
  }

  @Post(':id/payment-method')
  @RequirePermission('money')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Replace the card through a new cardholder-initiated verification' })
  @ApiOkResponse({ type: SubscriptionView })
  @BillingErrors(...IDEMPOTENT, CHARGES, 'INVALID_STATE', {
    NOT_FOUND: 'no such subscription for this merchant and environment, or an unknown, used or expired nonce',
  })
  paymentMethod(
    @Param('id') id: string,
    @Body() body: PaymentMethodRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<SubscriptionView> {
    return this.rpc.send<SubscriptionView>(BillingSubjects.updatePaymentMethod, caller, { ...body, id });
  }
}
