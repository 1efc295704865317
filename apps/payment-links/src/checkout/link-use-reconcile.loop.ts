import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, PaymentResponse } from '@app/contracts';
import { SandboxClockCopy } from '@app/database';
import { LOGGER } from '@app/observability';
import { PeriodicLoop } from '@app/platform';
import { PAYMENT_LINKS_CONFIG, PaymentLinksConfig } from '../config';
import { PaymentLinkRepository } from '../link/payment-link.repository';
import { LinkUseEntity } from './link-use.entity';
import { LinkUseLedger, orderCodeOf, outcomeOf, UseOutcome } from './link-use.ledger';
import { LinkUsesRepository } from './link-uses.repository';
import { PaymentsClient } from './payments.client';

const BATCH = 50;
/** How long a reservation being checked holds its place again. */
const LEASE_MS = 60_000;

/**
 * Settles reservations whose time ran out without an answer: the service stopped between the purchase and
 * its settlement, a purchase timed out, or a 3DS payment was resumed elsewhere or abandoned. Payments is
 * asked what became of the attempt (by payment id, else by the use's order code): a captured payment
 * confirms the use, a payment still waiting for 3DS keeps it, anything else releases it. Claimed with a
 * lease (FOR UPDATE SKIP LOCKED, then committed), so no transaction stays open across the NATS calls. Runs
 * every LINK_EXPIRY_SWEEP_MS (0 turns it off).
 */
@Injectable()
export class LinkUseReconcileLoop extends PeriodicLoop {
  readonly loopName = 'link_use_reconcile';

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly uses: LinkUsesRepository,
    private readonly links: PaymentLinkRepository,
    private readonly ledger: LinkUseLedger,
    private readonly payments: PaymentsClient,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
    @Inject(PAYMENT_LINKS_CONFIG) private readonly config: PaymentLinksConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.LINK_EXPIRY_SWEEP_MS;
  }

  protected async work(): Promise<boolean> {
    return (await this.runOnce()) >= BATCH;
  }

  /** Checks one batch of lapsed reservations; answers how many were claimed. */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const lapsed = await this.db.transaction((m) => this.uses.claimLapsed(m, now, LEASE_MS, BATCH));
    for (const use of lapsed) {
      try {
        await this.reconcile(use);
      } catch (e) {
        this.logger.warn({ err: e, useId: use.id }, 'could not check a lapsed link reservation; the lease will retry');
      }
    }
    return lapsed.length;
  }

  private async reconcile(use: LinkUseEntity): Promise<void> {
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
