import { Environment } from '@app/contracts';

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

/** The page a link's token opens, on the gateway's public address. */
export const cardUpdateUrl = (publicBaseUrl: string, token: string): string =>
  `${publicBaseUrl.replace(/\/$/, '')}/card-update/${token}`;
