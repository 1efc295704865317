import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { linkRunTo } from '@app/observability';
import { PeriodicLoop } from '@app/platform';
import { inTransaction } from '@app/database';
import { PAYMENT_LINKS_CONFIG, PaymentLinksConfig } from '../config';
import { LapsedUseCheck } from './lapsed-use.check';
import { LinkUsesRepository } from './link-uses.repository';

const BATCH = 50;
/** How long a reservation being checked holds its place again. */
const LEASE_MS = 60_000;

/**
 * Settles reservations whose time ran out without an answer: the service stopped between the purchase and
 * its settlement, a purchase timed out, or a 3DS payment was resumed elsewhere or abandoned; each one is
 * checked with payments (LapsedUseCheck). Claimed with a lease (FOR UPDATE SKIP LOCKED, then committed), so
 * no transaction stays open across the NATS calls. Runs every LINK_EXPIRY_SWEEP_MS (0 turns it off). With
 * tracing on, a run (a trace of its own) links to the trace of the checkout request that reserved each use it
 * claimed.
 */
@Injectable()
export class LinkUseReconcileLoop extends PeriodicLoop {
  readonly loopName = 'link_use_reconcile';

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly uses: LinkUsesRepository,
    private readonly checks: LapsedUseCheck,
    private readonly clock: Clock,
    @Inject(PAYMENT_LINKS_CONFIG) private readonly config: PaymentLinksConfig,
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
    const lapsed = await inTransaction(this.db, (m) => this.uses.claimLapsed(m, now, LEASE_MS, BATCH));
    linkRunTo(lapsed);
    for (const use of lapsed) {
      try {
        await this.checks.settle(use);
      } catch (e) {
        this.log.warn({ err: e, useId: use.id }, 'could not check a lapsed link reservation; the lease will retry');
      }
    }
    return lapsed.length;
  }
}
