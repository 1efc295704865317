import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext, Environment } from '@app/contracts';
import { runStatement, statement } from '@app/database';
import { newToken, tokenHash } from '../auth/tokens';
import { CARD_UPDATE_LINK_TTL_MS, CardUpdateLink } from './card-update-links';

/** The token is a 32-byte random secret in the link's URL; only its SHA-256 is stored (auth/tokens.ts). */
const hashOf = (token: string): Buffer => Buffer.from(tokenHash(token), 'hex');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

interface Row extends Record<string, unknown> {
  id: string;
  merchant_code: string;
  merchant_id: number | null;
  environment: Environment;
  subscription_id: string;
  expires_at: Date;
  used_at: Date | null;
}

const toLink = (r: Row): CardUpdateLink => ({
  id: r.id,
  merchantCode: r.merchant_code,
  merchantId: r.merchant_id,
  environment: r.environment,
  subscriptionId: r.subscription_id,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
});

const COLUMNS = 'id, merchant_code, merchant_id, environment, subscription_id, expires_at, used_at';
const INSERT = statement(
  'card_update_links_insert',
  `INSERT INTO card_update_links (id, token_hash, merchant_code, merchant_id, environment, subscription_id,
     expires_at, created_at, event_id)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (event_id) DO NOTHING RETURNING ${COLUMNS}`,
);
const EMAILS_ON = statement(
  'merchants_card_update_emails',
  'SELECT card_update_emails FROM merchants WHERE merchant_code = $1',
);
const SET_EMAILS = statement(
  'merchants_set_card_update_emails',
  'UPDATE merchants SET card_update_emails = $2 WHERE merchant_code = $1',
);
const BY_TOKEN = statement(
  'card_update_links_by_token',
  `SELECT ${COLUMNS} FROM card_update_links WHERE token_hash = $1`,
);
const BY_TOKEN_LOCKED = statement(
  'card_update_links_by_token_locked',
  `SELECT ${COLUMNS} FROM card_update_links WHERE token_hash = $1 FOR UPDATE`,
);
const MARK_USED = statement(
  'card_update_links_mark_used',
  'UPDATE card_update_links SET used_at = $2 WHERE id = $1 AND used_at IS NULL',
);

/** The `card_update_links` table of the gateway. */
@Injectable()
export class CardUpdateLinks {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * A new link. With `eventId` (a link emailed for an event), null when that event already made one: a
   * redelivered event sends nothing twice.
   */
  async create(
    ctx: Pick<CallerContext, 'merchantCode' | 'merchantId' | 'environment'>,
    subscriptionId: string,
    now: Date,
    eventId: string | null = null,
  ): Promise<{ token: string; link: CardUpdateLink } | null> {
    const token = newToken();
    const expiresAt = new Date(now.getTime() + CARD_UPDATE_LINK_TTL_MS);
    const [row] = await runStatement<Row>(this.db, INSERT, [
      uuidv7(),
      hashOf(token),
      ctx.merchantCode,
      ctx.merchantId ?? null,
      ctx.environment,
      subscriptionId,
      expiresAt,
      now,
      eventId,
    ]);
    return row ? { token, link: toLink(row) } : null;
  }

  /** Whether the merchant has card-update emails on. */
  async emailsOn(merchantCode: string): Promise<boolean> {
    const rows = await runStatement<{ card_update_emails: boolean }>(this.db, EMAILS_ON, [merchantCode]);
    return rows[0]?.card_update_emails ?? false;
  }

  async setEmails(merchantCode: string, on: boolean): Promise<void> {
    await runStatement(this.db, SET_EMAILS, [merchantCode, on]);
  }

  /** The link a token opens, or null for a malformed or unknown token. */
  async find(token: string, manager: EntityManager = this.db.manager, lock = false): Promise<CardUpdateLink | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const rows = await runStatement<Row>(manager, lock ? BY_TOKEN_LOCKED : BY_TOKEN, [hashOf(token)]);
    return rows[0] ? toLink(rows[0]) : null;
  }

  async markUsed(manager: EntityManager, id: string, now: Date): Promise<void> {
    await runStatement(manager, MARK_USED, [id, now]);
  }
}
