import { Audited } from '../audit/audited';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  MerchantQuery,
  RollSecretRequest,
  WebhookSecretResponse,
  WebhooksSubjects,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { RequirePermission } from '../auth/permission';

/** The account signing secret of the key's merchant and environment (signs deliveries to a payment's webhookUrl). */
@ApiTags('webhooks')
@Controller('v1/webhook-secret')
@PrivateRoute()
@ApiErrors(forwardedTo('webhooks'))
export class WebhookSecretController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RequirePermission('secrets')
  @ApiOperation({
    summary: 'Read the account signing secret',
    description: 'Created on first read. Signs deliveries to the `webhookUrl` given on a payment.',
  })
  @ApiOkResponse({ type: WebhookSecretResponse })
  get(@Query() _scope: MerchantQuery, @Caller() caller: CallerContext): Promise<WebhookSecretResponse> {
    return this.rpc.send<WebhookSecretResponse>(WebhooksSubjects.getSecret, caller, {});
  }

  @Post('roll')
  @Audited('webhook_secret.rolled')
  @RequirePermission('secrets')
  @IdempotencyKeyHeader()
  @ApiErrors('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace the account signing secret',
    description:
      'Deliveries sent from now on, retries included, are signed with the new secret; the replaced one signs ' +
      'beside it for `expiresInSeconds` (default 86400, 0: not at all), so a receiver can switch without losing any.',
  })
  @ApiOkResponse({ type: WebhookSecretResponse })
  @ApiErrors({ VALIDATION_FAILED: '`expiresInSeconds` is outside 0..86400' })
  roll(@Body() body: RollSecretRequest, @IdempotentCaller() caller: CallerContext): Promise<WebhookSecretResponse> {
    return this.rpc.send<WebhookSecretResponse>(WebhooksSubjects.rollSecret, caller, body);
  }
}
