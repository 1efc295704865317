import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { entitySelect } from '@app/database';
import { StoredCard } from './stored-card.entity';

type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

const byToken = entitySelect(
  StoredCard,
  'stored_cards_by_token',
  'token = $1 AND merchant_code = $2 AND environment = $3',
);

@Injectable()
export class VaultRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(row: StoredCard, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.insert(StoredCard, row);
  }

  /**
   * Only the token's own merchant and environment can find it. `manager`: the caller's transaction, so a
   * purchase that holds a pool connection never waits for a second one (a full pool would wait forever).
   */
  async findByToken(scope: Scope, token: string, manager: EntityManager = this.db.manager): Promise<StoredCard | null> {
    const [card] = await byToken(manager, [token, scope.merchantCode, scope.environment]);
    return card ?? null;
  }
}
