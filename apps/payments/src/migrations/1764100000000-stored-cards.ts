import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateStoredCards1764100000000 implements MigrationInterface {
  name = 'CreateStoredCards1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE stored_cards (
        id uuid PRIMARY KEY,
        token text NOT NULL UNIQUE,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        shopper_id text NOT NULL,
        key_id text NOT NULL,
        pan_sealed bytea NOT NULL,
        bin text NOT NULL,
        last4 text NOT NULL,
        brand text NOT NULL,
        card_type text NOT NULL,
        expiry_month text NOT NULL,
        expiry_year text NOT NULL,
        cardholder_name text,
        network_transaction_id text,
        network_reference_id text,
        created_at timestamptz NOT NULL
      )`);
    // Finds the rows still sealed under an old key when one is retired.
    await q.query(`CREATE INDEX stored_cards_key_id ON stored_cards (key_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE stored_cards`);
  }
}
