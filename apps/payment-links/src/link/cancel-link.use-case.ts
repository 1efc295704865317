import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, PaymentLinkIdCommand, PaymentLinkResponse } from '@app/contracts';
import { TransactionUseCase, UseCase } from '@app/idempotency';
import { LinkQueries } from './link-queries.service';
import { LinkRecorder } from './link-recorder';
import { move } from './payment-link-state';
import { PaymentLinkRepository } from './payment-link.repository';

/**
 * POST /v1/payment-links/{id}/cancel: 200 also for an already cancelled link (no second event); 409 for a used or
 * expired one. An Idempotency-Key is claimed in the cancel's transaction: its retry replays the first answer
 * even after the link expired.
 */
@UseCase({ operation: 'link.cancel', idempotency: 'transaction', request: ({ id }: PaymentLinkIdCommand) => ({ id }) })
export class CancelLinkUseCase extends TransactionUseCase<PaymentLinkIdCommand, PaymentLinkResponse, Date> {
  constructor(
    private readonly links: PaymentLinkRepository,
    private readonly queries: LinkQueries,
    private readonly recorder: LinkRecorder,
    private readonly clock: Clock,
  ) {
    super();
  }

  /** 404 first, and an expiry that is due is recorded before the cancel decides. */
  protected override async prepare(ctx: CallerContext, { id }: PaymentLinkIdCommand): Promise<Date> {
    await this.queries.get(ctx, id);
    return this.clock.now(ctx);
  }

  protected async execute(
    ctx: CallerContext,
    { id }: PaymentLinkIdCommand,
    manager: EntityManager,
    now: Date,
  ): Promise<PaymentLinkResponse> {
    const link = await this.links.lock(manager, id, ctx);
    const event = move(link, 'cancel');
    if (event) {
      link.cancelledAt = now;
      link.updatedAt = now;
    }
    return this.recorder.changed(manager, link, event, now);
  }
}
