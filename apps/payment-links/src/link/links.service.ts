import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, uuidv7 } from '@app/clock';
import {
  CallerContext,
  CreatePaymentLinkRequest,
  EventTypes,
  LinkPlanAnswer,
  ListPaymentLinksCommand,
  PaymentLinkResponse,
} from '@app/contracts';
import { IdempotencyService } from '@app/idempotency';
import { traceParentOf } from '@app/observability';
import { LinkExpiry } from './link-expiry.service';
import { BillingClient } from './billing.client';
import { LinkRecorder } from './link-recorder';
import { assertPlanOpen, freeText, linkTerms } from './link-rules';
import { LINK_MACHINE, move } from './payment-link-state';
import { PaymentLinkEntity } from './payment-link.entity';
import { PaymentLinkRepository } from './payment-link.repository';

/** The operation an Idempotency-Key on link creation is recorded under. */
export const LINK_CREATE = 'payment_link.create';

/** Create, read, list and cancel links (docs/api.md, Payment links and checkout) for a merchant's key. */
@Injectable()
export class LinksService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly links: PaymentLinkRepository,
    private readonly recorder: LinkRecorder,
    private readonly expiry: LinkExpiry,
    private readonly idempotency: IdempotencyService,
    private readonly billing: BillingClient,
    private readonly clock: Clock,
  ) {}

  async create(ctx: CallerContext, body: CreatePaymentLinkRequest): Promise<PaymentLinkResponse> {
    const { merchantCode: _m, ...request } = body;
    const earlier = await this.idempotency.earlierAnswer<PaymentLinkResponse>(ctx, LINK_CREATE, request);
    if (earlier) return earlier;
    // Billing is asked before any transaction opens: nothing calls out inside one.
    let plan: LinkPlanAnswer | undefined;
    if (body.type === 'subscription' && body.subscriptionPlanId !== undefined) {
      plan = await this.billing.plan(ctx, body.subscriptionPlanId);
      assertPlanOpen(plan);
    }
    const now = this.clock.now(ctx);
    const terms = linkTerms(body, now, plan);
    return this.idempotency.transaction(ctx, LINK_CREATE, request, 201, (manager) => {
      const link = Object.assign(new PaymentLinkEntity(), {
        id: uuidv7(),
        merchantCode: ctx.merchantCode,
        merchantId: ctx.merchantId ?? null,
        environment: ctx.environment,
        status: LINK_MACHINE.spec.initial,
        ...terms,
        ...freeText(body),
        checkoutConfigId: body.checkoutConfigId ?? null,
        saveCardEnabled: body.saveCardEnabled ?? false,
        usesCount: 0,
        metadata: body.metadata ?? {},
        usedAt: null,
        cancelledAt: null,
        createdAt: now,
        updatedAt: now,
        // With tracing on, the expiry run that expires it links to this request.
        traceParent: traceParentOf(),
      } satisfies Partial<PaymentLinkEntity>);
      return this.recorder.created(manager, link, EventTypes.paymentLinkCreated);
    });
  }

  async get(ctx: CallerContext, id: string): Promise<PaymentLinkResponse> {
    const link = await this.links.get(ctx, id);
    return this.recorder.view(await this.expiry.current(link, this.clock.now(ctx)));
  }

  async list(ctx: CallerContext, query: ListPaymentLinksCommand): Promise<PaymentLinkResponse[]> {
    const now = this.clock.now(ctx);
    const page = await this.links.list(ctx, { limit: query.limit ?? 20, ...query });
    const current = await Promise.all(page.map((link) => this.expiry.current(link, now)));
    // A status filter asked about the status as stored; a link that expired on this read no longer matches it.
    return current
      .filter((l) => query.status === undefined || l.status === query.status)
      .map((l) => this.recorder.view(l));
  }

  /**
   * 200 also for an already cancelled link (no second event); 409 for a used or expired one. An Idempotency-Key
   * is claimed in the cancel's transaction: its retry replays the first answer even after the link expired.
   */
  async cancel(ctx: CallerContext, id: string): Promise<PaymentLinkResponse> {
    await this.get(ctx, id); // 404 first, and an expiry that is due is recorded before the cancel decides
    const now = this.clock.now(ctx);
    return this.idempotency.transaction(ctx, 'link.cancel', { id }, 200, async (manager) => {
      const link = await this.links.lock(manager, id, ctx);
      const event = move(link, 'cancel');
      if (event) {
        link.cancelledAt = now;
        link.updatedAt = now;
      }
      return this.recorder.changed(manager, link, event, now);
    });
  }
}
