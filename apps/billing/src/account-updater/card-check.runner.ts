import { Inject, Injectable } from '@nestjs/common';
import { uuidv7 } from '@app/clock';
import { CallerContext, CardCheckResult, PaymentsSubjects, CardCheckCommand } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { BILLING_CONFIG, BillingConfig } from '../config';
import type { Scope } from '../scope';
import { CardCheckClaim as Claimed, CardCheckRepository } from './card-check.repository';

/** How many subscriptions one round claims. */
export const CARD_CHECK_BATCH = 100;

const DAY_MS = 86_400_000;

/**
 * The account updater before renewals: subscriptions whose renewal (or dunning retry) falls due within
 * ACCOUNT_UPDATER_DAYS_AHEAD days and whose card was not checked for it are claimed (FOR UPDATE SKIP LOCKED,
 * marked with the renewal they are checked for in the claim's own commit), and payments checks each token: a
 * card that expires before the renewal goes to the updater, which updates it in place or says it cannot. A
 * closed account is marked on the subscription: its renewal then waits for a new payment method instead of
 * retries that cannot succeed. A check that fails is unmarked, so the next round takes it again.
 */
@Injectable()
export class CardCheckRunner {
  constructor(
    private readonly subscriptions: CardCheckRepository,
    private readonly rpc: RpcClient,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
  ) {}

  /** One round as of `at` (a sandbox advance: one merchant's, with its clock offset); answers how many it took. */
  async round(at: Date, scope?: Scope, clockOffsetMs?: number): Promise<number> {
    const horizon = new Date(at.getTime() + this.config.ACCOUNT_UPDATER_DAYS_AHEAD * DAY_MS);
    const rows = await this.subscriptions.claimDue(horizon, CARD_CHECK_BATCH, scope);
    await Promise.all(
      rows.map((row) => this.checkOne(row, clockOffsetMs && this.offsetWhenDue(row, at, clockOffsetMs))),
    );
    return rows.length;
  }

  /**
   * In a sandbox advance to `at`, a card is checked as of when the periodic loop would have taken it: when its
   * renewal came within ACCOUNT_UPDATER_DAYS_AHEAD days, or when the subscription last changed if that is later
   * (never after `at`). So the updater's event is stamped before the renewal that uses the new card, however
   * far one advance goes.
   */
  private offsetWhenDue(row: Claimed, at: Date, clockOffsetMs: number): number {
    const due = Math.max(
      row.next_billing_date.getTime() - this.config.ACCOUNT_UPDATER_DAYS_AHEAD * DAY_MS,
      new Date(row.updated_at).getTime(),
    );
    return Math.max(0, clockOffsetMs - Math.max(0, at.getTime() - due));
  }

  private async checkOne(row: Claimed, clockOffsetMs?: number): Promise<void> {
    const ctx: CallerContext = {
      requestId: uuidv7(),
      merchantCode: row.merchant_code,
      environment: row.environment,
      ...(row.merchant_id !== null ? { merchantId: Number(row.merchant_id) } : {}),
      ...(clockOffsetMs ? { clockOffsetMs } : {}),
    };
    try {
      const answer = await this.rpc.send<CardCheckResult, CardCheckCommand>(PaymentsSubjects.checkToken, ctx, {
        token: row.card_token,
        before: row.next_billing_date.toISOString(),
      });
      if (answer.result === 'closed') {
        await this.subscriptions.markClosed(row.id, row.card_token);
      }
    } catch {
      await this.subscriptions.unmark(row.id, row.next_billing_date);
    }
  }
}
