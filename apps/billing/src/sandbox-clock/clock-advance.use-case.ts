import { Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, ClockAdvancedCommand, ClockAdvancedResult } from '@app/contracts';
import { WorkBound } from '@app/database';
import { LOGGER } from '@app/observability';
import { whileAdvancingSandbox } from '@app/platform';
import { UseCase } from '@app/idempotency';
import { CARD_CHECK_BATCH, CardCheckRunner } from '../account-updater/card-check.runner';
import { RenewalRunner } from '../renewal/renewal-runner.service';
import { RenewalRepository } from '../renewal/renewal.repository';
import type { Scope } from '../scope';

/** How often an advance looks again when the only due rows are leased by another worker. */
const LEASED_POLL_MS = 50;

/**
 * A merchant's sandbox clock is moving to `to`: before answering, run every billing step of
 * that sandbox due by then, each as of its own due instant (payments' "now" included), earliest first, a
 * subscription's steps one after another (a P3M advance of a monthly plan renews three times). Unlike
 * `runDueInTimeOrder` no transaction spans a round: each step is claim, charge, record. Rows
 * leased by the periodic loop or another replica are waited for, so the advance answers only once all of
 * its due work is done. Running it twice is harmless: done steps are no longer due. The command's bound
 * (maxWork, deadline) stops it between rounds; the answer then says work is left, and the clock stays. One
 * advance of a merchant at a time (whileAdvancing): a retry waits for the one its client gave up on, which
 * stops at its deadline. This work runs in the command's own call, apart from the periodic RenewalLoop,
 * whose claims skip the rows leased here (SKIP LOCKED) and take only what is due on real time, so a sandbox
 * advance never holds up production renewals.
 */
@UseCase({ operation: 'sandbox-clock.advance', idempotency: 'none' })
export class BillingClockAdvanceUseCase {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly runner: RenewalRunner,
    private readonly cardChecks: CardCheckRunner,
    private readonly renewals: RenewalRepository,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(ctx: CallerContext, body: ClockAdvancedCommand): Promise<ClockAdvancedResult> {
    const run = await whileAdvancingSandbox(this.db, this.clock, ctx, body, (...due) => this.runDue(...due));
    const result: ClockAdvancedResult = run.busy ? { ran: 0, unfinished: true, busy: true } : run.result;
    this.logger.info(
      { merchantCode: ctx.merchantCode, to: body.to, ...result },
      'billing due work ran for a clock advance',
    );
    return result;
  }

  private async runDue(scope: Scope, to: Date, bound: WorkBound): Promise<ClockAdvancedResult> {
    let ran = 0;
    let unfinished = false;
    // The account updater before the renewals this advance runs, and again after each round for the renewals
    // it scheduled (a card is checked once per renewal: a pass takes only the new ones), so a renewal later in
    // a long advance charges the card as the updater left it.
    await this.checkCards(scope, to);
    for (;;) {
      if (bound.reached(ran)) {
        unfinished = (await this.renewals.dueCount(scope, to)) > 0;
        break;
      }
      const claimed = await this.runner.round(to, (row) => row.dueAt, scope, true);
      ran += claimed;
      if (claimed) {
        await this.checkCards(scope, to);
        continue;
      }
      if (!(await this.renewals.dueCount(scope, to))) break;
      await sleep(LEASED_POLL_MS);
    }
    await this.checkCards(scope, to);
    return { ran, unfinished };
  }

  private async checkCards(scope: Scope, to: Date): Promise<void> {
    const offset = Math.max(0, to.getTime() - this.clock.now().getTime());
    while ((await this.cardChecks.round(to, scope, offset)) >= CARD_CHECK_BATCH);
  }
}
