import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stored card keeps the acquirer of the payment that stored it, so the sandbox account updater acts on a
 * simulator's cards only. Cards stored before: the acquirer of their first payment; none found, it stays null
 * (not a simulator's card: the updater leaves it alone).
 */
export class StoredCardAcquirer1769000200002 implements MigrationInterface {
  name = 'StoredCardAcquirer1769000200002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE stored_cards ADD COLUMN acquirer text');
    await q.query(`
      UPDATE stored_cards s SET acquirer = first.acquirer
      FROM (
        SELECT DISTINCT ON (token ->> 'token') token ->> 'token' AS token, acquirer
        FROM payments WHERE token IS NOT NULL ORDER BY token ->> 'token', created_at, id
      ) first
      WHERE first.token = s.token`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE stored_cards DROP COLUMN acquirer');
  }
}
