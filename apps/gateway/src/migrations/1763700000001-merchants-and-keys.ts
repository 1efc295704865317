import { MigrationInterface, QueryRunner } from 'typeorm';

export class MerchantsAndKeys1763700000001 implements MigrationInterface {
  name = 'MerchantsAndKeys1763700000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE merchants (
        id uuid PRIMARY KEY,
        merchant_code text NOT NULL UNIQUE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        key_hash char(64) NOT NULL UNIQUE,
        key_hint text NOT NULL,
        type text NOT NULL CHECK (type IN ('private', 'public')),
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE api_key_merchants (
        key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        merchant_id uuid NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
        PRIMARY KEY (key_id, merchant_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE api_key_merchants');
    await q.query('DROP TABLE api_keys');
    await q.query('DROP TABLE merchants');
  }
}
