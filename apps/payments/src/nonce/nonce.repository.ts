import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { CardNonce } from './card-nonce.entity';

type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

@Injectable()
export class NonceRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(row: CardNonce, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.getRepository(CardNonce).insert(row);
  }

  /**
   * Takes the nonce out of the table in one statement: of two concurrent payments with the same nonce only
   * one gets the row. In the payment's transaction (`manager`) the nonce is used up only if the payment
   * commits. An expired row is taken too (and then refused), so it does not linger.
   */
  async take(
    scope: Scope,
    nonce: string,
    manager: EntityManager = this.db.manager,
  ): Promise<Pick<CardNonce, 'keyId' | 'cardSealed' | 'expiresAt'> | null> {
    const result: unknown = await manager.query(
      `DELETE FROM card_nonces WHERE nonce = $1 AND merchant_code = $2 AND environment = $3
       RETURNING key_id, card_sealed, expires_at`,
      [nonce, scope.merchantCode, scope.environment],
    );
    // pg's DELETE … RETURNING answers [rows, count] through TypeORM.
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<{
      key_id: string;
      card_sealed: Buffer;
      expires_at: Date;
    }>;
    const row = rows[0];
    return row ? { keyId: row.key_id, cardSealed: row.card_sealed, expiresAt: new Date(row.expires_at) } : null;
  }

  /** Nonces nobody used are deleted once expired, so no sealed CVV stays around. */
  async purgeExpired(before: Date): Promise<void> {
    await this.db.query(`DELETE FROM card_nonces WHERE expires_at <= $1`, [before]);
  }
}
