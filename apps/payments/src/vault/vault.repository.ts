import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { entityInsert, entitySelect, runStatement, statement } from '@app/database';
import { StoredCard } from './stored-card.entity';

type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

// Awaited inside a transaction too: a purchase that tokenizes hears a failed insert where it stores the card.
const insertCard = entityInsert(StoredCard, 'stored_cards_insert', { awaited: true });

const byToken = entitySelect(
  StoredCard,
  'stored_cards_by_token',
  'token = $1 AND merchant_code = $2 AND environment = $3',
);

const byTokenLocked = entitySelect(
  StoredCard,
  'stored_cards_by_token_locked',
  'token = $1 AND merchant_code = $2 AND environment = $3 FOR UPDATE',
);
const UPDATE_CARD = statement(
  'stored_cards_update_card',
  `UPDATE stored_cards SET key_id = $2, pan_sealed = $3, bin = $4, last4 = $5, expiry_month = $6, expiry_year = $7
    WHERE id = $1`,
);

@Injectable()
export class VaultRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(row: StoredCard, manager: EntityManager = this.db.manager): Promise<void> {
    await insertCard(manager, row);
  }

  /**
   * Only the token's own merchant and environment can find it. `manager`: the caller's transaction, so a
   * purchase that holds a pool connection never waits for a second one (a full pool would wait forever).
   */
  async findByToken(scope: Scope, token: string, manager: EntityManager = this.db.manager): Promise<StoredCard | null> {
    const [card] = await byToken(manager, [token, scope.merchantCode, scope.environment]);
    return card ?? null;
  }

  /** The token's card, locked in the caller's transaction (the account updater rewrites it). */
  async lockByToken(manager: EntityManager, scope: Scope, token: string): Promise<StoredCard | null> {
    const [card] = await byTokenLocked(manager, [token, scope.merchantCode, scope.environment]);
    return card ?? null;
  }

  /** Writes the card's number (sealed, with its bin and last four) and expiry as they are now. */
  async updateCard(manager: EntityManager, c: StoredCard): Promise<void> {
    await runStatement(manager, UPDATE_CARD, [c.id, c.keyId, c.panSealed, c.bin, c.last4, c.expiryMonth, c.expiryYear]);
  }
}
