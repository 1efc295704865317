import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext, Environment } from '@app/contracts';

/** A card-update link lives 7 days (docs/api.md). */
export const CARD_UPDATE_LINK_TTL_MS = 7 * 24 * 3600_000;

/** What a link's token opens: one subscription of one merchant, until it is used or expires. */
export interface CardUpdateLink {
  id: string;
  merchantCode: string;
  merchantId: number | null;
  environment: Environment;
  subscriptionId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export type CardUpdateLinkState = 'open' | 'used' | 'expired';

export const linkState = (link: CardUpdateLink, now: Date): CardUpdateLinkState =>
  link.usedAt ? 'used' : link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'open';

/** The token is a 32-byte random secret in the link's URL; only its SHA-256 is stored. */
const hashOf = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

interface Row {
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
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + CARD_UPDATE_LINK_TTL_MS);
    const [row] = (await this.db.query(
      `INSERT INTO card_update_links (id, token_hash, merchant_code, merchant_id, environment, subscription_id,
         expires_at, created_at, event_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (event_id) DO NOTHING RETURNING ${COLUMNS}`,
      [
        uuidv7(),
        hashOf(token),
        ctx.merchantCode,
        ctx.merchantId ?? null,
        ctx.environment,
        subscriptionId,
        expiresAt,
        now,
        eventId,
      ],
    )) as Row[];
    return row ? { token, link: toLink(row) } : null;
  }

  /** Whether the merchant has card-update emails on. */
  async emailsOn(merchantCode: string): Promise<boolean> {
    const rows = (await this.db.query('SELECT card_update_emails FROM merchants WHERE merchant_code = $1', [
      merchantCode,
    ])) as Array<{ card_update_emails: boolean }>;
    return rows[0]?.card_update_emails ?? false;
  }

  async setEmails(merchantCode: string, on: boolean): Promise<void> {
    await this.db.query('UPDATE merchants SET card_update_emails = $2 WHERE merchant_code = $1', [merchantCode, on]);
  }

  /** The link a token opens, or null for a malformed or unknown token. */
  async find(token: string, manager: EntityManager = this.db.manager, lock = false): Promise<CardUpdateLink | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const rows = (await manager.query(
      `SELECT ${COLUMNS} FROM card_update_links WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
      [hashOf(token)],
    )) as Row[];
    return rows[0] ? toLink(rows[0]) : null;
  }

  async markUsed(manager: EntityManager, id: string, now: Date): Promise<void> {
    await manager.query('UPDATE card_update_links SET used_at = $2 WHERE id = $1 AND used_at IS NULL', [id, now]);
  }
}

/** The page a link's token opens, on the gateway's public address. */
export const cardUpdateUrl = (publicBaseUrl: string, token: string): string =>
  `${publicBaseUrl.replace(/\/$/, '')}/card-update/${token}`;
