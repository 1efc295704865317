import { EntityManager } from 'typeorm';
import { CallerContext, TokenView } from '@app/contracts';
import { ResolvedCard } from '../card/instrument';

export interface TokenizeRequest {
  ctx: CallerContext;
  card: ResolvedCard;
  shopperId: string;
  networkTransactionId: string | null;
  networkReferenceId: string | null;
  /** The acquirer of the payment that stores the card (`sandbox`: the simulator). */
  acquirer: string;
  now: Date;
}

/**
 * Stores an approved card in the vault (`tokenize: true`) inside the purchase transaction and answers the
 * response `token`; undefined when no vault is wired in.
 */
export interface CardVaultPort {
  tokenize(manager: EntityManager, request: TokenizeRequest): Promise<TokenView | undefined>;
}

export const CARD_VAULT_PORT = Symbol('CARD_VAULT_PORT');
