import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  CallerContext,
  CreateNonceRequest,
  NonceResponse,
  PaymentsExtrasSubjects,
  SdkSessionRequest,
  SdkSessionResponse,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { CardTestingDefence } from '../card-testing/card-testing';
import { clientAddress } from '../http/client-address';
import { ClientCaller, ClientTokenLink, FieldFrameRoute } from './client-token.guard';
import { ClientTokens } from './client-tokens.service';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { RequirePermission } from '../auth/permission';

@ApiTags('sdk')
@Controller('v1/sdk')
export class SdkController {
  constructor(
    private readonly tokens: ClientTokens,
    private readonly rpc: RpcClient,
    private readonly defence: CardTestingDefence,
  ) {}

  @Post('session')
  @RequirePermission('manage')
  @HttpCode(200)
  @PrivateRoute()
  @ApiOperation({
    summary: 'Mint a client token for the browser SDK',
    description:
      'Server side, with a private key. The token (a JWT, 30 minutes) authorizes only the browser SDK routes, for ' +
      'this merchant and environment; optional checkout details are recorded in it. Mint a new one after expiry.',
  })
  @ApiOkResponse({ type: SdkSessionResponse })
  session(@Body() body: SdkSessionRequest, @Caller() caller: CallerContext): Promise<SdkSessionResponse> {
    return this.tokens.mint(caller, body);
  }

  @Post('nonce')
  @HttpCode(201)
  @FieldFrameRoute()
  @ApiOperation({
    summary: 'Turn a card into a single-use nonce (browser SDK)',
    description:
      'Authenticated by a client token (`Authorization: Bearer <clientToken>`), never by an API key. The nonce is ' +
      'valid 15 minutes for one purchase or authorization (`card.nonceData.nonce`); used or expired it is 404. ' +
      'The card fields name the merchant they were opened for; a token of another merchant is refused.',
  })
  @ApiCreatedResponse({ type: NonceResponse })
  @ApiErrors(forwardedTo('payments'), {
    VALIDATION_FAILED: 'a card field fails its check (Luhn, past expiry, format); `param` names it',
    RATE_LIMITED: 'with a payment link’s client token, too many declined payments from this address or on that link',
  })
  async nonce(
    @Body() body: CreateNonceRequest,
    @ClientCaller() caller: CallerContext,
    @ClientTokenLink() linkId: string | undefined,
    @Req() request: FastifyRequest,
  ): Promise<NonceResponse> {
    // A payment link's checkout is open to anyone: its card-testing defence stops new cards here too.
    if (linkId) await this.defence.assertOpen(clientAddress(request), linkId);
    return this.rpc.send<NonceResponse>(PaymentsExtrasSubjects.createNonce, caller, body);
  }
}
