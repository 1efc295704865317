import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runStatement, statement } from '@app/database';
import { Environment } from '@app/contracts';
import type { Scope } from '../scope';

export interface CardCheckClaim {
  id: string;
  merchant_code: string;
  environment: Environment;
  merchant_id: string | null;
  card_token: string;
  next_billing_date: Date;
  updated_at: Date;
}

const CLAIM = statement(
  'card_check_claim',
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
);
const MARK_CLOSED = statement(
  'card_check_mark_closed',
  'UPDATE subscriptions SET card_closed_at = now() WHERE id = $1 AND card_token = $2 AND card_closed_at IS NULL',
);
const UNMARK = statement(
  'card_check_unmark',
  'UPDATE subscriptions SET card_checked_for = NULL WHERE id = $1 AND card_checked_for = $2',
);

/** The account updater's claims on subscriptions (see CardCheckRunner). */
@Injectable()
export class CardCheckRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Up to `limit` subscriptions due by `horizon` whose card was not checked for their renewal, marked with it
   * in the claim's own commit (FOR UPDATE SKIP LOCKED); `scope`: one merchant's only.
   */
  claimDue(horizon: Date, limit: number, scope?: Scope): Promise<CardCheckClaim[]> {
    const values = [horizon, limit, scope?.merchantCode ?? null, scope?.environment ?? null];
    return runStatement<CardCheckClaim & Record<string, unknown>>(this.db, CLAIM, values);
  }

  /** The card is closed: the renewal waits for a new payment method (unless the card changed meanwhile). */
  async markClosed(id: string, cardToken: string): Promise<void> {
    await runStatement(this.db, MARK_CLOSED, [id, cardToken]);
  }

  /** The check failed: the next round takes the subscription again. */
  async unmark(id: string, checkedFor: Date): Promise<void> {
    await runStatement(this.db, UNMARK, [id, checkedFor]);
  }
}
