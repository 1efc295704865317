import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { entityInsert, runStatement, statement } from '@app/database';
import { CardNonce } from './card-nonce.entity';

type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

const insertNonce = entityInsert(CardNonce, 'card_nonces_insert');
const TAKE = statement(
  'card_nonces_take',
  `DELETE FROM card_nonces WHERE nonce = $1 AND merchant_code = $2 AND environment = $3
   RETURNING key_id, card_sealed, expires_at, real_expires_at`,
);
const DELETE_EXPIRED = statement(
  'card_nonces_delete_expired',
  `DELETE FROM card_nonces WHERE nonce IN (
     SELECT nonce FROM card_nonces WHERE real_expires_at <= $1
     ORDER BY real_expires_at
     LIMIT $2
     FOR UPDATE SKIP LOCKED)
   RETURNING 1`,
);

@Injectable()
export class NonceRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Inside a transaction: sent at once, checked with its commit. */
  insert(row: CardNonce, manager: EntityManager = this.db.manager): Promise<void> {
    return insertNonce(manager, row);
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
  ): Promise<Pick<CardNonce, 'keyId' | 'cardSealed' | 'expiresAt' | 'realExpiresAt'> | null> {
    const [row] = await runStatement<{ key_id: string; card_sealed: Buffer; expires_at: Date; real_expires_at: Date }>(
      manager,
      TAKE,
      [nonce, scope.merchantCode, scope.environment],
    );
    return row
      ? {
          keyId: row.key_id,
          cardSealed: row.card_sealed,
          expiresAt: new Date(row.expires_at),
          realExpiresAt: new Date(row.real_expires_at),
        }
      : null;
  }

  /**
   * Deletes up to `limit` nonces whose real-time end is past, so no sealed card or CVV stays around; rows a
   * payment holds right now are skipped (it takes them itself). Answers how many went.
   */
  async deleteExpired(realNow: Date, limit: number): Promise<number> {
    return (await runStatement(this.db, DELETE_EXPIRED, [realNow, limit])).length;
  }
}
