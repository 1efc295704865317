import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  CONNECTOR_WEBHOOK_BODY_LIMIT,
  ConnectorWebhookAnswer,
  ConnectorWebhookCommand,
  keylessContext,
  PaymentsExtrasSubjects,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { PaymentErrors } from '../payments/payment-errors';
import { RequestWithRawBody } from './raw-webhook-body';

/** Headers never forwarded: no provider signs with them, and they may carry someone's credentials. */
const DROPPED_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

@ApiTags('connectors')
@Controller('v1/connectors')
export class ConnectorWebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  /** No API key and no guard: the provider's signature, verified with the connection's credentials, is the credential. */
  @Post(':connectionId/webhooks')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Receive a payment provider’s webhook for one connection (no API key)',
    description:
      'The URL to register at the provider (Adyen: Customer Area → Webhooks → Standard notification; Stripe: ' +
      'Developers → Webhooks) for the connection `connectionId` (docs/connectors.md). The body is verified as ' +
      'the provider specifies (Adyen HMAC signature, Stripe-Signature) with the connection’s credentials, each ' +
      'event is applied once (a redelivery is acknowledged and not applied again) and the answer is what the ' +
      `provider expects (Adyen: \`[accepted]\`). At most ${CONNECTOR_WEBHOOK_BODY_LIMIT / 1024} KiB.`,
  })
  @ApiParam({ name: 'connectionId', description: 'The connection’s id (admin API)', format: 'uuid' })
  @ApiConsumes('application/json')
  @ApiBody({ description: 'The provider’s notification, as it sends it', schema: { type: 'object' } })
  @ApiOkResponse({ description: 'The provider’s acknowledgement (Adyen: the text `[accepted]`)' })
  @PaymentErrors({
    AUTH_INVALID: 'the signature does not verify with the connection’s credentials; nothing was applied',
    NOT_FOUND: 'no such connection, or its connector takes no webhooks',
    PAYLOAD_TOO_LARGE: `the body is larger than ${CONNECTOR_WEBHOOK_BODY_LIMIT / 1024} KiB`,
  })
  async receive(
    @Param('connectionId') connectionId: string,
    @Req() request: RequestWithRawBody,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || DROPPED_HEADERS.has(name)) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const command: ConnectorWebhookCommand = {
      connectionId,
      rawBody: (request.rawWebhookBody ?? Buffer.alloc(0)).toString('base64'),
      headers,
    };
    const answer = await this.rpc.send<ConnectorWebhookAnswer>(
      PaymentsExtrasSubjects.connectorWebhook,
      keylessContext(String(request.id)),
      command,
    );
    await reply.status(answer.status).header('content-type', answer.contentType).send(answer.body);
  }
}
