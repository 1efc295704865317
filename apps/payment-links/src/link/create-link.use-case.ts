import { EntityManager } from 'typeorm';
import { Clock, uuidv7 } from '@app/clock';
import {
  CallerContext,
  CreatePaymentLinkRequest,
  EventTypes,
  LinkPlanAnswer,
  PaymentLinkResponse,
} from '@app/contracts';
import { TransactionUseCase, UseCase } from '@app/idempotency';
import { traceParentOf } from '@app/observability';
import { BillingClient } from './billing.client';
import { LinkRecorder } from './link-recorder';
import { assertPlanOpen, freeText, linkTerms } from './link-rules';
import { LINK_MACHINE } from './payment-link-state';
import { PaymentLinkEntity } from './payment-link.entity';

/** The link's terms, checked before its transaction (a subscription link's plan asked of billing), and the time. */
interface Terms {
  terms: ReturnType<typeof linkTerms>;
  now: Date;
}

/**
 * POST /v1/payment-links (docs/api.md, Payment links and checkout). A retry with the key of an answered creation
 * replays it before billing is asked again; billing is asked before any transaction opens (nothing calls out
 * inside one).
 */
@UseCase({
  operation: 'payment_link.create',
  idempotency: 'transaction',
  status: 201,
  request: ({ merchantCode: _m, ...request }: CreatePaymentLinkRequest) => request,
  replayBeforePrepare: true,
})
export class CreateLinkUseCase extends TransactionUseCase<CreatePaymentLinkRequest, PaymentLinkResponse, Terms> {
  constructor(
    private readonly recorder: LinkRecorder,
    private readonly billing: BillingClient,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected override async prepare(ctx: CallerContext, body: CreatePaymentLinkRequest): Promise<Terms> {
    let plan: LinkPlanAnswer | undefined;
    if (body.type === 'subscription' && body.subscriptionPlanId !== undefined) {
      plan = await this.billing.plan(ctx, body.subscriptionPlanId);
      assertPlanOpen(plan);
    }
    const now = this.clock.now(ctx);
    return { terms: linkTerms(body, now, plan), now };
  }

  protected execute(
    ctx: CallerContext,
    body: CreatePaymentLinkRequest,
    manager: EntityManager,
    { terms, now }: Terms,
  ): Promise<PaymentLinkResponse> {
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
  }
}
