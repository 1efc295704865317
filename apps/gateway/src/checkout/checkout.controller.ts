import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CallerContext,
  CheckoutResult,
  CheckoutView,
  keylessContext,
  PayLinkCommand,
  PayLinkRequest,
  PayerResult,
  PaymentLinksSubjects,
  ResumeLinkCommand,
  ResumeLinkRequest,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { clientAddress } from '../http/client-address';
import { ClientCaller, LinkClientRoute } from '../sdk/client-token.guard';
import { ClientTokens } from '../sdk/client-tokens.service';
import { checkoutPage, notFoundPage, unavailablePage } from './checkout-page';
import { CHECKOUT_PAGE_OPTIONS, CheckoutPageOptions, pageHeaders } from '../hosted/page-headers';
import { CardTestingDefence } from '../card-testing/card-testing';
import { toPayerError, toPayerResult } from './payer-result';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';

const LINKS = forwardedTo('payment-links');
const HTML = { 'text/html': { schema: { type: 'string' } } };

/**
 * The hosted checkout of a payment link (docs/api.md) and its keyless, link-scoped payment routes. The page
 * gets a client token bound to its link; paying takes that token, so a token of another link is refused.
 */
@ApiTags('checkout')
@Controller()
export class CheckoutController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly tokens: ClientTokens,
    @Inject(CHECKOUT_PAGE_OPTIONS) private readonly options: CheckoutPageOptions,
    private readonly defence: CardTestingDefence,
  ) {}

  @Get('checkout/:id')
  @ApiOperation({
    summary: 'Hosted checkout page of a payment link (HTML, no key)',
    description: 'The link’s `url`. An expired, cancelled or used link answers 410 with a page that says so.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The checkout page' })
  @ApiResponse({ status: 404, description: 'A page saying the link does not exist', content: HTML })
  @ApiResponse({ status: 410, description: 'A page saying the link is expired, cancelled or used', content: HTML })
  @ApiErrors(LINKS)
  async page(
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    pageHeaders(reply, this.options);
    let view: CheckoutView;
    try {
      view = await this.rpc.send<CheckoutView>(PaymentLinksSubjects.checkoutView, keylessContext(String(request.id)), {
        id,
      });
    } catch (e) {
      if (!(e instanceof DomainError && e.code === 'NOT_FOUND')) throw e;
      void reply.status(404);
      return notFoundPage();
    }
    if (view.status !== 'active') {
      void reply.status(410);
      return unavailablePage(view);
    }
    const { clientToken } = await this.tokens.mintForLink(
      { linkId: view.id, merchantCode: view.merchantCode, environment: view.environment },
      String(request.id),
    );
    return checkoutPage(view, clientToken);
  }

  @Post('v1/checkout/:id/pay')
  @HttpCode(200)
  @LinkClientRoute()
  @ApiOperation({
    summary: 'Pay a payment link with an SDK nonce (no key: the link’s client token)',
    description:
      'Takes the client token the checkout page got for this link. `outcome` says what happened: succeeded, ' +
      'declined (the link stays active), failed, or requires_action (run `payment.actionRequired` with the SDK, ' +
      'then POST /v1/checkout/{id}/resume); `message` says it in words for the payer. The answer shows the link ' +
      'as the checkout page does and never why a card was refused: the merchant reads that through its API.',
  })
  @ApiOkResponse({ type: PayerResult })
  @ApiErrors(LINKS, {
    NOT_FOUND: 'unknown link, or the nonce is unknown, used or expired',
    INVALID_STATE: 'the link is expired, cancelled or used',
    PAYMENT_DECLINED: 'a subscription link’s first charge was declined (the answer carries no reason)',
    RATE_LIMITED: 'too many declined payments from this address or on this link; wait Retry-After seconds',
  })
  async pay(
    @Param('id') id: string,
    @Body() body: PayLinkRequest,
    @Req() request: FastifyRequest,
    @ClientCaller() caller: CallerContext,
  ): Promise<PayerResult> {
    return this.answer(() =>
      this.defence.attempt(clientAddress(request), caller, id, () =>
        this.rpc.send<CheckoutResult, PayLinkCommand>(PaymentLinksSubjects.pay, keylessContext(String(request.id)), {
          ...body,
          linkId: id,
        }),
      ),
    );
  }

  /**
   * Finishes an attempt already made, so it is never refused for earlier declines; a declined or expired
   * challenge counts as a decline. The only route that resumes a link payment's session.
   */
  @Post('v1/checkout/:id/resume')
  @HttpCode(200)
  @LinkClientRoute()
  @ApiOperation({
    summary: 'Finish a link payment after its 3DS challenge (the link’s client token)',
    description:
      'The link learns the final outcome here: a captured payment counts as a use of the link. The answer ' +
      'is the same as the pay route’s.',
  })
  @ApiOkResponse({ type: PayerResult })
  @ApiErrors(LINKS, 'SESSION_EXPIRED', 'CHALLENGE_NOT_COMPLETED', {
    NOT_FOUND: 'not a session this link started',
    AUTH_INSUFFICIENT_SCOPE: 'a production payment’s 3DS session: the challenge is simulated, sandbox only',
    INVALID_STATE: 'the session was already used',
  })
  resume(
    @Param('id') id: string,
    @Body() body: ResumeLinkRequest,
    @Req() request: FastifyRequest,
    @ClientCaller() caller: CallerContext,
  ): Promise<PayerResult> {
    return this.answer(() =>
      this.defence.resumed(clientAddress(request), caller, id, body.sessionId, () =>
        this.rpc.send<CheckoutResult, ResumeLinkCommand>(
          PaymentLinksSubjects.resume,
          keylessContext(String(request.id)),
          { sessionId: body.sessionId, linkId: id },
        ),
      ),
    );
  }

  private async answer(run: () => Promise<CheckoutResult>): Promise<PayerResult> {
    try {
      return toPayerResult(await run());
    } catch (e) {
      throw toPayerError(e);
    }
  }
}
