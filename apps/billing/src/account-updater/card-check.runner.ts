import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext, CardCheckResult, Environment, PaymentsSubjects, CardCheckCommand } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { BILLING_CONFIG, BillingConfig } from '../config';
import type { Scope } from '../scope';

/** How many subscriptions one round claims. */
export const CARD_CHECK_BATCH = 100;

interface Claimed {
  id: string;
  merchant_code: string;
  environment: Environment;
  merchant_id: string | null;
  card_token: string;
  next_billing_date: Date;
  updated_at: Date;
}

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly rpc: RpcClient,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
  ) {}

  /** One round as of `at` (a sandbox advance: one merchant's, with its clock offset); answers how many it took. */
  async round(at: Date, scope?: Scope, clockOffsetMs?: number): Promise<number> {
    const horizon = new Date(at.getTime() + this.config.ACCOUNT_UPDATER_DAYS_AHEAD * DAY_MS);
    const claimed: Claimed[] = await this.db.query(
      `UPDATE subscriptions s SET card_checked_for = s.next_billing_date
         FROM (SELECT id FROM subscriptions
                WHERE status IN ('pending', 'trialing', 'active', 'past_due')
                  AND next_billing_date <= $1
                  AND card_checked_for IS DISTINCT FROM next_billing_date
                  AND card_token <> ''
                  AND ($3::text IS NULL OR (merchant_code = $3 AND environment = $4))
                ORDER BY next_billing_date LIMIT $2
                FOR UPDATE SKIP LOCKED) due
        WHERE s.id = due.id
        RETURNING s.id, s.merchant_code, s.environment, s.merchant_id, s.card_token, s.next_billing_date, s.updated_at`,
      [horizon, CARD_CHECK_BATCH, scope?.merchantCode ?? null, scope?.environment ?? null],
    );
    const rows = Array.isArray(claimed[0]) ? (claimed[0] as unknown as Claimed[]) : claimed;
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
        await this.db.query(
          `UPDATE subscriptions SET card_closed_at = now() WHERE id = $1 AND card_token = $2 AND card_closed_at IS NULL`,
          [row.id, row.card_token],
        );
      }
    } catch {
      await this.db.query('UPDATE subscriptions SET card_checked_for = NULL WHERE id = $1 AND card_checked_for = $2', [
        row.id,
        row.next_billing_date,
      ]);
    }
  }
}
