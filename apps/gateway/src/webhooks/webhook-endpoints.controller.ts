import { Audited } from '../audit/audited';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import {
  CallerContext,
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpointResponse,
  MerchantQuery,
  PageQuery,
  ResendWebhookDeliveryCommand,
  RollEndpointSecretCommand,
  RolledWebhookEndpointResponse,
  RollSecretRequest,
  UpdateWebhookEndpointCommand,
  UpdateWebhookEndpointRequest,
  WebhookDeliveriesCommand,
  WebhookDeliveryResponse,
  WebhookEndpointIdCommand,
  WebhookEndpointResponse,
  WebhooksSubjects,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { RequirePermission } from '../auth/permission';

const WEBHOOKS = forwardedTo('webhooks');

const NO_ENDPOINT = { NOT_FOUND: 'no such webhook endpoint for this merchant and environment' };
const BAD_URL = { VALIDATION_FAILED: '`url` is not https or names a private address, or an event type is unknown' };
const BAD_EXPIRY = { VALIDATION_FAILED: '`expiresInSeconds` is outside 0..86400' };
const TAKEN_URL = { DUPLICATE_WEBHOOK_URL: 'another live endpoint of this merchant and environment has this `url`' };
const IDEMPOTENT = ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'] as const;
const ID = { name: 'id', description: 'Webhook endpoint id', format: 'uuid' };

/** Webhook endpoints and their delivery log (docs/webhooks.md), forwarded to the webhooks service. */
@ApiTags('webhooks')
@Controller('v1/webhook-endpoint')
@PrivateRoute()
@ApiErrors(WEBHOOKS)
export class WebhookEndpointsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @Audited('webhook_endpoint.created')
  @RequirePermission('manage')
  @IdempotencyKeyHeader()
  @ApiErrors(...IDEMPOTENT)
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description:
      'Deliveries of the listed event types are POSTed to `url`, signed with the `secret` shown only here. A ' +
      'merchant has at most WEBHOOK_MAX_ENDPOINTS (default 16) endpoints per environment, each with its own `url`.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointResponse })
  @ApiErrors(BAD_URL, TAKEN_URL, {
    WEBHOOK_ENDPOINT_LIMIT: 'the merchant has WEBHOOK_MAX_ENDPOINTS endpoints in this environment; delete one first',
  })
  create(
    @Body() body: CreateWebhookEndpointRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<CreatedWebhookEndpointResponse> {
    return this.rpc.send<CreatedWebhookEndpointResponse>(WebhooksSubjects.createEndpoint, caller, body);
  }

  @Get()
  @RequirePermission('read')
  @ApiOperation({ summary: 'List webhook endpoints, newest first' })
  @ApiOkResponse({ type: [WebhookEndpointResponse] })
  @ApiErrors({ NOT_FOUND: '`startingAfter` is not one of these endpoints' })
  list(@Query() query: PageQuery, @Caller() caller: CallerContext): Promise<WebhookEndpointResponse[]> {
    const { merchantCode: _merchantCode, ...page } = query;
    return this.rpc.send<WebhookEndpointResponse[], PageQuery>(WebhooksSubjects.listEndpoints, caller, page);
  }

  @Get(':id')
  @RequirePermission('read')
  @ApiOperation({ summary: 'Read a webhook endpoint (its secret is never shown again)' })
  @ApiParam(ID)
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiErrors(NO_ENDPOINT)
  get(
    @Param('id') id: string,
    @Query() _scope: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<WebhookEndpointResponse> {
    return this.rpc.send<WebhookEndpointResponse, WebhookEndpointIdCommand>(WebhooksSubjects.getEndpoint, caller, {
      id,
    });
  }

  @Patch(':id')
  @Audited('webhook_endpoint.updated')
  @RequirePermission('manage')
  @IdempotencyKeyHeader()
  @ApiErrors(...IDEMPOTENT)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Update a webhook endpoint',
    description:
      'Changes `url`, `events` or `description`, or disables (`disabled: true`: no deliveries; tries still ' +
      'waiting are given up when due) or enables it. Fields left out stay as they are.',
  })
  @ApiParam(ID)
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiErrors(BAD_URL, TAKEN_URL)
  @ApiErrors(NO_ENDPOINT)
  update(
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<WebhookEndpointResponse> {
    const command = { id, body };
    return this.rpc.send<WebhookEndpointResponse, UpdateWebhookEndpointCommand>(
      WebhooksSubjects.updateEndpoint,
      caller,
      command,
    );
  }

  @Post(':id/roll-secret')
  @Audited('webhook_endpoint.secret_rolled')
  @RequirePermission('secrets')
  @IdempotencyKeyHeader()
  @ApiErrors(...IDEMPOTENT)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace the endpoint’s signing secret',
    description:
      'Answers the new `secret`, shown only here. The replaced secret keeps signing deliveries beside the new one ' +
      'for `expiresInSeconds` (default 86400; 0: it stops at once), so the receiver can switch without losing any.',
  })
  @ApiParam(ID)
  @ApiOkResponse({ type: RolledWebhookEndpointResponse })
  @ApiErrors(BAD_EXPIRY)
  @ApiErrors(NO_ENDPOINT)
  rollSecret(
    @Param('id') id: string,
    @Body() body: RollSecretRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<RolledWebhookEndpointResponse> {
    const command = { id, body };
    return this.rpc.send<RolledWebhookEndpointResponse, RollEndpointSecretCommand>(
      WebhooksSubjects.rollEndpointSecret,
      caller,
      command,
    );
  }

  @Delete(':id')
  @Audited('webhook_endpoint.deleted')
  @RequirePermission('manage')
  @IdempotencyKeyHeader()
  @ApiErrors(...IDEMPOTENT)
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a webhook endpoint; tries still waiting for it are given up' })
  @ApiParam(ID)
  @ApiOkResponse({ type: DeletedWebhookEndpointResponse })
  @ApiErrors(NO_ENDPOINT)
  remove(
    @Param('id') id: string,
    @Query() _scope: MerchantQuery,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<DeletedWebhookEndpointResponse> {
    return this.rpc.send<DeletedWebhookEndpointResponse, WebhookEndpointIdCommand>(
      WebhooksSubjects.deleteEndpoint,
      caller,
      { id },
    );
  }

  @Get(':id/deliveries')
  @RequirePermission('read')
  @ApiOperation({
    summary: 'Delivery attempts to this endpoint, newest first',
    description: 'A `pending` row is the next try and `nextAttemptAt` says when it is due.',
  })
  @ApiParam(ID)
  @ApiOkResponse({ type: [WebhookDeliveryResponse] })
  @ApiErrors(NO_ENDPOINT, { NOT_FOUND: 'no such webhook endpoint, or `startingAfter` is not one of its deliveries' })
  deliveries(
    @Param('id') id: string,
    @Query() query: PageQuery,
    @Caller() caller: CallerContext,
  ): Promise<WebhookDeliveryResponse[]> {
    const { merchantCode: _merchantCode, ...page } = query;
    return this.rpc.send<WebhookDeliveryResponse[], WebhookDeliveriesCommand>(WebhooksSubjects.listDeliveries, caller, {
      id,
      page,
    });
  }

  @Post(':id/deliveries/:deliveryId/resend')
  @RequirePermission('resend')
  @IdempotencyKeyHeader()
  @ApiErrors(...IDEMPOTENT)
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a dead or failed delivery again',
    description:
      'Same body and `Webhook-Id`, signed anew. A dead delivery gets a new try due now; a failed one waiting ' +
      'for its next try has it brought forward to now. `deliveryId` is the id of any attempt in the log. ' +
      'Answers the try that will be sent.',
  })
  @ApiParam(ID)
  @ApiParam({ name: 'deliveryId', description: 'Id of an attempt from the delivery log', format: 'uuid' })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  @ApiErrors({
    NOT_FOUND: 'no such webhook endpoint, or no such delivery to it',
    INVALID_STATE: 'the delivery succeeded, or the endpoint is disabled',
  })
  resend(
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @Body() _scope: MerchantQuery,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<WebhookDeliveryResponse> {
    return this.rpc.send<WebhookDeliveryResponse, ResendWebhookDeliveryCommand>(
      WebhooksSubjects.resendDelivery,
      caller,
      { id, deliveryId },
    );
  }

  @Post(':id/test')
  @RequirePermission('manage')
  @IdempotencyKeyHeader()
  @ApiErrors(...IDEMPOTENT)
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a signed `ping` event to this endpoint',
    description: 'Queued through the normal delivery path (signature, retries); answers the pending first try.',
  })
  @ApiParam(ID)
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  @ApiErrors(NO_ENDPOINT)
  test(
    @Param('id') id: string,
    @Body() _scope: MerchantQuery,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<WebhookDeliveryResponse> {
    return this.rpc.send<WebhookDeliveryResponse, WebhookEndpointIdCommand>(WebhooksSubjects.testEndpoint, caller, {
      id,
    });
  }
}
