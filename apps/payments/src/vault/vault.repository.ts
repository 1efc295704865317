import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { StoredCard } from './stored-card.entity';

type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

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
  findByToken(scope: Scope, token: string, manager: EntityManager = this.db.manager): Promise<StoredCard | null> {
    return manager.getRepository(StoredCard).findOne({
      where: { token, merchantCode: scope.merchantCode, environment: scope.environment },
    });
  }
}
