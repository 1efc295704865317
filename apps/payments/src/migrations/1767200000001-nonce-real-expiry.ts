import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A nonce's end in real time, which the sweeper deletes it by: its `expires_at` is on the merchant's sandbox
 * clock, which may run far ahead of real time, and the sealed card must not live longer for that. Rows from
 * before end at their sandbox expiry or 15 minutes from now, whichever comes first.
 */
export class NonceRealExpiry1767200000001 implements MigrationInterface {
  name = 'NonceRealExpiry1767200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE card_nonces ADD COLUMN real_expires_at timestamptz`);
    await q.query(`UPDATE card_nonces SET real_expires_at = LEAST(expires_at, now() + interval '15 minutes')`);
    await q.query(`ALTER TABLE card_nonces ALTER COLUMN real_expires_at SET NOT NULL`);
    await q.query(`DROP INDEX card_nonces_expires_at`);
    await q.query(`CREATE INDEX card_nonces_real_expires_at ON card_nonces (real_expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX card_nonces_real_expires_at`);
    await q.query(`CREATE INDEX card_nonces_expires_at ON card_nonces (expires_at)`);
    await q.query(`ALTER TABLE card_nonces DROP COLUMN real_expires_at`);
  }
}
