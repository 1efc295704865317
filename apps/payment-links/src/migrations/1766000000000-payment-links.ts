import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePaymentLinks1766000000000 implements MigrationInterface {
  name = 'CreatePaymentLinks1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_links (
        id uuid PRIMARY KEY,
        merchant_code text NOT NULL,
        merchant_id bigint,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        type text NOT NULL CHECK (type IN ('one-time', 'subscription')),
        status text NOT NULL CHECK (status IN ('active', 'used', 'expired', 'cancelled')),
        amount_mode text NOT NULL CHECK (amount_mode IN ('fixed', 'customer_entered')),
        currency text,
        exponent int,
        amount_value bigint CHECK (amount_value > 0),
        amount_min bigint,
        amount_max bigint,
        subscription_plan_id bigint,
        plan jsonb,
        checkout_config_id uuid,
        title text,
        description text,
        reference text,
        customer_email text,
        customer_name text,
        return_url text,
        save_card_enabled boolean NOT NULL DEFAULT false,
        reusable boolean NOT NULL,
        max_uses int CHECK (max_uses > 0),
        uses_count int NOT NULL DEFAULT 0,
        metadata jsonb NOT NULL DEFAULT '{}',
        expires_at timestamptz,
        used_at timestamptz,
        cancelled_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK (amount_min IS NULL OR amount_max IS NULL OR amount_min <= amount_max)
      )`);
    await q.query(
      'CREATE INDEX payment_links_merchant_created ON payment_links (merchant_code, environment, created_at DESC, id DESC)',
    );
    // The sweeper's claim: active links with an expiry, by expiry.
    await q.query(
      "CREATE INDEX payment_links_expiring ON payment_links (expires_at) WHERE status = 'active' AND expires_at IS NOT NULL",
    );
    // One row per attempt to pay a link: a use is reserved (under the link's row lock) before payments is
    // called, then confirmed or released; only live reservations hold a place.
    await q.query(`
      CREATE TABLE payment_link_uses (
        id uuid PRIMARY KEY,
        link_id uuid NOT NULL REFERENCES payment_links (id),
        status text NOT NULL CHECK (status IN ('reserved', 'confirmed', 'released')),
        payment_id uuid,
        session_id text,
        subscription_id text,
        amount_value bigint,
        reserved_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(
      "CREATE INDEX payment_link_uses_live ON payment_link_uses (link_id, reserved_until) WHERE status = 'reserved'",
    );
    await q.query(
      'CREATE UNIQUE INDEX payment_link_uses_session ON payment_link_uses (session_id) WHERE session_id IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE payment_link_uses');
    await q.query('DROP TABLE payment_links');
  }
}
