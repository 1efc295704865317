import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { Clock, SandboxClockCopy } from '@app/clock';
import { CallerContext, PaymentResponse } from '@app/contracts';
import { LOGGER } from '@app/observability';
import { PaymentLinkRepository } from '../link/payment-link.repository';
import { LinkUseEntity } from './link-use.entity';
import { LinkUseLedger, orderCodeOf, outcomeOf, UseOutcome } from './link-use.ledger';
import { PaymentsClient } from './payments.client';

/**
 * One lapsed link reservation checked: payments is asked what became of its attempt (by payment id, else by
 * the use's order code); a captured payment confirms the use, a payment still waiting for 3DS keeps it,
 * anything else releases it.
 */
@Injectable()
export class LapsedUseCheck {
  constructor(
    private readonly links: PaymentLinkRepository,
    private readonly ledger: LinkUseLedger,
    private readonly payments: PaymentsClient,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async settle(use: LinkUseEntity): Promise<void> {
    const link = await this.links.getKeyless(use.linkId);
    const scope = await this.clocks.clockScopeOf(link);
    const ctx: CallerContext = { ...scope, requestId: `reconcile-${use.id}` };
    let payment: PaymentResponse | undefined;
    if (link.type !== 'subscription') {
      payment = use.paymentId
        ? await this.payments.get(ctx, use.paymentId)
        : (await this.payments.byOrderCode(ctx, orderCodeOf(use.id)))[0];
    }
    // A subscription enrolment has no payment to ask about: billing keeps nothing on a decline.
    const outcome: UseOutcome = payment ? outcomeOf(payment) : { kind: 'failed' };
    if (outcome.kind === 'pending') return;
    const settled = await this.ledger.settle(use.id, outcome, this.clock.now(scope));
    this.logger.info(
      { useId: use.id, linkId: link.id, outcome: outcome.kind, usesCount: settled.usesCount },
      'lapsed link reservation settled',
    );
  }
}
