import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CallerContext, MerchantQuery, PageQuery } from '@app/contracts';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { ErrorEnvelope } from '../http/error-envelope.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpointResponse,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
} from './webhooks.dto';

const ID = { name: 'id', description: 'Webhook endpoint id', format: 'uuid' };

@ApiTags('webhooks')
@Controller('v1/webhook-endpoint')
@PrivateRoute()
export class WebhookEndpointsController {
  constructor(private readonly webhooks: WebhookEndpointsService) {}

  @Post()
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description: 'Deliveries of the listed event types are POSTed to `url`, signed with the `secret` shown only here.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointResponse })
  @ApiBadRequestResponse({
    description: 'VALIDATION_FAILED: not https, a private address, or an unknown event type',
    type: ErrorEnvelope,
  })
  create(
    @Body() body: CreateWebhookEndpointRequest,
    @Caller() caller: CallerContext,
  ): Promise<CreatedWebhookEndpointResponse> {
    return this.webhooks.create(caller, body);
  }

  @Get()
  @ApiOperation({ summary: 'List webhook endpoints, newest first' })
  @ApiOkResponse({ type: [WebhookEndpointResponse] })
  list(@Query() query: PageQuery, @Caller() caller: CallerContext): Promise<WebhookEndpointResponse[]> {
    return this.webhooks.list(caller, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a webhook endpoint (its secret is never shown again)' })
  @ApiParam(ID)
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiNotFoundResponse({ type: ErrorEnvelope })
  get(
    @Param('id') id: string,
    @Query() _scope: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<WebhookEndpointResponse> {
    return this.webhooks.get(caller, id);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a webhook endpoint; tries still waiting for it are given up' })
  @ApiParam(ID)
  @ApiOkResponse({ type: DeletedWebhookEndpointResponse })
  @ApiNotFoundResponse({ type: ErrorEnvelope })
  remove(
    @Param('id') id: string,
    @Query() _scope: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<DeletedWebhookEndpointResponse> {
    return this.webhooks.remove(caller, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: 'Delivery attempts to this endpoint, newest first',
    description: 'A `pending` row is the next try and `nextAttemptAt` says when it is due.',
  })
  @ApiParam(ID)
  @ApiOkResponse({ type: [WebhookDeliveryResponse] })
  @ApiNotFoundResponse({ type: ErrorEnvelope })
  deliveries(
    @Param('id') id: string,
    @Query() query: PageQuery,
    @Caller() caller: CallerContext,
  ): Promise<WebhookDeliveryResponse[]> {
    return this.webhooks.deliveriesOf(caller, id, query);
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a signed `ping` event to this endpoint',
    description: 'Queued through the normal delivery path (signature, retries); answers the pending first try.',
  })
  @ApiParam(ID)
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  @ApiNotFoundResponse({ type: ErrorEnvelope })
  test(
    @Param('id') id: string,
    @Body() _scope: MerchantQuery,
    @Caller() caller: CallerContext,
  ): Promise<WebhookDeliveryResponse> {
    return this.webhooks.test(caller, id);
  }
}
