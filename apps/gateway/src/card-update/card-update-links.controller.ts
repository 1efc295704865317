import { Body, Controller, Inject, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BillingSubjects, CallerContext, SubscriptionView } from '@app/contracts';
import { Clock } from '@app/clock';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { PrivateRoute } from '../auth/caller.decorator';
import { RequirePermission } from '../auth/permission';
import { BillingErrors, IDEMPOTENT } from '../billing/billing-errors';
import { CHECKOUT_PAGE_OPTIONS, CheckoutPageOptions } from '../hosted/page-headers';
import { GatewayIdempotency } from '../idempotency/gateway-idempotency';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { CardUpdateLinkView, CreateCardUpdateLinkRequest } from './card-update.dto';
import { cardUpdateUrl } from './card-update-links';
import { CardUpdateLinks } from './card-update-links.repository';

/** A link is offered where a new card helps: a card to replace (past due, suspended) or about to expire. */
const LINKABLE = new Set(['past_due', 'suspended', 'active', 'trialing']);

/** POST /v1/subscription/{id}/card-update-link: a one-time hosted page where the customer replaces the card. */
@ApiTags('billing')
@Controller('v1/subscription')
@PrivateRoute()
export class CardUpdateLinksController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly links: CardUpdateLinks,
    private readonly idempotency: GatewayIdempotency,
    private readonly clock: Clock,
    @Inject(CHECKOUT_PAGE_OPTIONS) private readonly options: CheckoutPageOptions,
  ) {}

  @Post(':id/card-update-link')
  @RequirePermission('manage')
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'A hosted card-update link for the customer (works once, expires after 7 days)',
    description:
      'For a past_due or suspended subscription, or an active or trialing one whose card expires. The customer ' +
      'opens `url`, sees the plan and the amount due, and enters a new card in the framed card fields; the card ' +
      'replaces the subscription’s and pays the open invoice at once (as POST /v1/subscription/{id}/payment-method). ' +
      'The token in the URL is stored hashed; a retry with the same Idempotency-Key answers the same link.',
  })
  @ApiCreatedResponse({ type: CardUpdateLinkView })
  @BillingErrors(...IDEMPOTENT, {
    NOT_FOUND: 'no such subscription for this merchant and environment',
    INVALID_STATE: 'the subscription is pending, paused, cancelled or completed: no card to update',
  })
  create(
    @Param('id') id: string,
    @Body() body: CreateCardUpdateLinkRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<CardUpdateLinkView> {
    const work = async (): Promise<CardUpdateLinkView> => {
      const subscription = await this.rpc.send<SubscriptionView>(BillingSubjects.getSubscription, caller, { id });
      if (!LINKABLE.has(subscription.status)) {
        throw DomainError.invalidState(`A ${subscription.status} subscription has no card to update`);
      }
      const { token, link } = (await this.links.create(caller, subscription.id, this.clock.now()))!;
      return {
        id: link.id,
        subscriptionId: link.subscriptionId,
        url: cardUpdateUrl(this.options.publicBaseUrl, token),
        expiresAt: link.expiresAt.toISOString(),
      };
    };
    // The answer holds the one-time URL: a replay opens it from a sealed row.
    return this.idempotency.run(caller, 'subscription.card-update-link', { ...body, id }, work, { secret: true });
  }
}
