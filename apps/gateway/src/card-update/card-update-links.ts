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

  async create(ctx: CallerContext, subscriptionId: string, now: Date): Promise<{ token: string; link: CardUpdateLink }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + CARD_UPDATE_LINK_TTL_MS);
    const [row] = (await this.db.query(
      `INSERT INTO card_update_links (id, token_hash, merchant_code, merchant_id, environment, subscription_id,
         expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [uuidv7(), hashOf(token), ctx.merchantCode, ctx.merchantId ?? null, ctx.environment, subscriptionId, expiresAt, now],
    )) as Row[];
    return { token, link: toLink(row) };
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
