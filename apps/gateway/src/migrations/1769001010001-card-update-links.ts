import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hosted card-update links of subscriptions (docs/api.md): the token is kept only as its SHA-256 hash; a link
 * works once (`used_at`) and until `expires_at`.
 */
export class CardUpdateLinks1769001010001 implements MigrationInterface {
  name = 'CardUpdateLinks1769001010001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card_update_links (
        id uuid PRIMARY KEY,
        token_hash bytea NOT NULL UNIQUE,
        merchant_code text NOT NULL,
        merchant_id integer,
        environment text NOT NULL,
        subscription_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(
      'CREATE INDEX card_update_links_subscription ON card_update_links (merchant_code, environment, subscription_id)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE card_update_links');
  }
}
