import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCardNonces1764100000001 implements MigrationInterface {
  name = 'CreateCardNonces1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card_nonces (
        nonce text PRIMARY KEY,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        api_key_id text,
        key_id text NOT NULL,
        card_sealed bytea NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX card_nonces_expires_at ON card_nonces (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE card_nonces`);
  }
}
