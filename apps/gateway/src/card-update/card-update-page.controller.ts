import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { BillingSubjects, CallerContext, InvoiceView, SubscriptionView } from '@app/contracts';
import { Clock } from '@app/clock';
import { inTransaction } from '@app/database';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { Inject } from '@nestjs/common';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { CHECKOUT_PAGE_OPTIONS, CheckoutPageOptions, pageHeaders } from '../hosted/page-headers';
import { ClientTokens } from '../sdk/client-tokens.service';
import { CardUpdateResult, SubmitCardUpdateRequest } from './card-update.dto';
import { CardUpdateLink, linkState } from './card-update-links';
import { CardUpdateLinks } from './card-update-links.repository';
import { cardUpdatePage, closedCardUpdatePage } from './card-update-page';

const HTML = { 'text/html': { schema: { type: 'string' } } };

/** The merchant's context a link acts in: the link names the merchant, never the request. */
const contextOf = (link: CardUpdateLink, requestId: string): CallerContext => ({
  requestId,
  merchantCode: link.merchantCode,
  environment: link.environment,
  ...(link.merchantId !== null ? { merchantId: link.merchantId } : {}),
});

/** The customer's side of a card-update link: the hosted page and its submit (the URL's token is the credential). */
@ApiTags('checkout')
@Controller()
export class CardUpdatePageController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly links: CardUpdateLinks,
    private readonly tokens: ClientTokens,
    private readonly clock: Clock,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(CHECKOUT_PAGE_OPTIONS) private readonly options: CheckoutPageOptions,
  ) {}

  @Get('card-update/:token')
  @ApiOperation({ summary: 'Hosted card-update page (HTML, no key): plan, amount due, framed card fields' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The card-update page' })
  @ApiResponse({ status: 404, description: 'A page saying the link does not exist', content: HTML })
  @ApiResponse({ status: 410, description: 'A page saying the link is used or expired', content: HTML })
  @ApiErrors(forwardedTo('billing'))
  async page(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    pageHeaders(reply, this.options);
    const link = await this.links.find(token);
    if (!link) {
      void reply.status(404);
      return closedCardUpdatePage('unknown');
    }
    const state = linkState(link, this.clock.now());
    if (state !== 'open') {
      void reply.status(410);
      return closedCardUpdatePage(state);
    }
    const ctx = contextOf(link, String(request.id));
    const subscription = await this.rpc.send<SubscriptionView>(BillingSubjects.getSubscription, ctx, {
      id: link.subscriptionId,
    });
    const invoices = await this.rpc.send<InvoiceView[]>(BillingSubjects.listInvoices, ctx, { id: subscription.id });
    const open = invoices.find((i) => i.status === 'open');
    const { clientToken } = await this.tokens.mintForLink(
      { linkId: `card_update:${link.id}`, merchantCode: link.merchantCode, environment: link.environment },
      String(request.id),
    );
    const view = {
      merchantCode: link.merchantCode,
      sandbox: link.environment === 'sandbox',
      planName: subscription.plan?.name ?? 'Subscription',
      amountDue: open ? { value: open.amount, currency: open.currency, exponent: open.exponent } : null,
      cardBrand: subscription.cardBrand,
    };
    return cardUpdatePage(view, token, clientToken);
  }

  @Post('v1/card-update/:token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace the subscription’s card with a nonce from the page’s card fields (no key: the link’s token)',
    description:
      'The card replaces the subscription’s and pays its open invoice at once. The link is then used; a decline ' +
      'leaves it open for another card.',
  })
  @ApiOkResponse({ type: CardUpdateResult })
  @ApiErrors(forwardedTo('billing'), {
    NOT_FOUND: 'unknown link, or the nonce is unknown, used or expired',
    INVALID_STATE: 'the link is used or expired, or the subscription takes no new card',
    PAYMENT_DECLINED: 'the new card was declined; the link stays open',
  })
  submit(
    @Param('token') token: string,
    @Body() body: SubmitCardUpdateRequest,
    @Req() request: FastifyRequest,
  ): Promise<CardUpdateResult> {
    // The link's row stays locked while billing charges the card: a second submit waits, then finds it used.
    return inTransaction(this.db, async (manager) => {
      const link = await this.links.find(token, manager, true);
      if (!link) throw DomainError.notFound('card-update link', 'token');
      const state = linkState(link, this.clock.now());
      if (state !== 'open') throw DomainError.invalidState(`The link is ${state}`);
      const subscription = await this.rpc.send<SubscriptionView>(
        BillingSubjects.updatePaymentMethod,
        contextOf(link, String(request.id)),
        { id: link.subscriptionId, card: { nonceData: { nonce: body.nonce } } },
      );
      await this.links.markUsed(manager, link.id, this.clock.now());
      return { link: 'used' as const, subscriptionStatus: subscription.status };
    });
  }
}
