import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext } from '@app/contracts';
import { DomainError } from '@app/errors';
import { inTransaction } from '@app/database';
import { canRetry } from '../subscription/subscription-policy';
import { BILLING_CONFIG, BillingConfig } from '../config';
import { InvoiceRepository } from '../invoice/invoice.repository';
import { attemptOf } from '../renewal/renewal-opening.service';
import { RenewalRunner } from '../renewal/renewal-runner.service';
import { RenewalRepository } from '../renewal/renewal.repository';

/**
 * A payment attempt on a past_due subscription's open invoice, asked for now rather than by the scheduler:
 * it takes the renewal lease (409 while the scheduler is charging it), opens the attempt on the invoice and
 * runs it as the scheduler runs its own; the lease goes back when it cannot start or fails.
 */
@Injectable()
export class ForcedAttempt {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly renewals: RenewalRepository,
    private readonly invoices: InvoiceRepository,
    private readonly runner: RenewalRunner,
    private readonly clock: Clock,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
  ) {}

  async run(ctx: CallerContext, id: string): ReturnType<RenewalRunner['attempt']> {
    const realNow = this.clock.now();
    if (!(await this.renewals.leaseOne(id, realNow, new Date(realNow.getTime() + this.config.RENEWAL_LEASE_MS)))) {
      throw DomainError.invalidState('A payment attempt of this subscription is in progress; try again');
    }
    const now = this.clock.now(ctx);
    const opened = await inTransaction(this.db, async (manager) => {
      const s = await this.renewals.lockSubscription(manager, id);
      const [invoice] = s ? await this.invoices.openOf(manager, id) : [];
      if (!s || !canRetry(s.status) || !invoice) {
        await this.renewals.release(id, manager);
        throw DomainError.invalidState('The subscription has no open invoice to pay');
      }
      return attemptOf(s, invoice, now);
    });
    return this.runner.attempt(opened, 'forced').catch(async (e: unknown) => {
      await this.renewals.release(id);
      throw e;
    });
  }
}
