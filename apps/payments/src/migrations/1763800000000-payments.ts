import { MigrationInterface, QueryRunner } from 'typeorm';

/** Payments, their operations and routing connections (the idempotency keys' table is @app/idempotency's). */
export class CreatePayments1763800000000 implements MigrationInterface {
  name = 'CreatePayments1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payments (
        id uuid PRIMARY KEY,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        payment_code text NOT NULL,
        order_code text NOT NULL,
        status text NOT NULL,
        intent text NOT NULL,
        payment_method text NOT NULL,
        amount_value bigint NOT NULL CHECK (amount_value >= 0),
        currency text NOT NULL,
        exponent int NOT NULL,
        amount_captured bigint NOT NULL DEFAULT 0,
        amount_refunded bigint NOT NULL DEFAULT 0,
        authorization_code text,
        connection_code text NOT NULL,
        connection_name text NOT NULL,
        acquirer text NOT NULL,
        acquirer_reference text,
        card jsonb,
        card_address jsonb,
        card_on_file jsonb,
        instalments int,
        apm jsonb,
        token jsonb,
        action_required jsonb,
        refusal_code jsonb,
        shopper jsonb,
        webhook_url text,
        ip_address text,
        three_ds_session_id text,
        metadata jsonb NOT NULL DEFAULT '{}',
        attempts jsonb NOT NULL DEFAULT '[]',
        hold_expires_at timestamptz,
        cancel_reason text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        -- The money invariants hold in the database too, whatever a bug in the code might do.
        CONSTRAINT payments_captured_within_amount CHECK (amount_captured BETWEEN 0 AND amount_value),
        CONSTRAINT payments_refunded_within_captured CHECK (amount_refunded BETWEEN 0 AND amount_captured)
      )`);
    await q.query('CREATE UNIQUE INDEX payments_payment_code ON payments (merchant_code, environment, payment_code)');
    await q.query(
      'CREATE INDEX payments_order_code ON payments (merchant_code, environment, order_code, created_at DESC)',
    );
    // One live payment per order: a declined, failed or cancelled attempt frees the order code for a retry.
    await q.query(`
      CREATE UNIQUE INDEX payments_order_code_live ON payments (merchant_code, environment, order_code)
      WHERE status NOT IN ('declined', 'failed', 'cancelled')`);
    await q.query('CREATE INDEX payments_listing ON payments (merchant_code, environment, id DESC)');
    await q.query(
      "CREATE INDEX payments_hold_expiry ON payments (hold_expires_at) WHERE status = 'authorized' AND hold_expires_at IS NOT NULL",
    );

    await q.query(`
      CREATE TABLE payment_operations (
        id uuid PRIMARY KEY,
        payment_id uuid NOT NULL REFERENCES payments (id),
        kind text NOT NULL,
        amount_value bigint NOT NULL,
        reference text,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX payment_operations_payment ON payment_operations (payment_id, created_at)');

    await q.query(`
      CREATE TABLE connections (
        id uuid PRIMARY KEY,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        connection_code text NOT NULL,
        connection_name text NOT NULL,
        acquirer text NOT NULL,
        currencies text[] NOT NULL DEFAULT '{}',
        methods text[] NOT NULL DEFAULT '{}',
        priority int NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE UNIQUE INDEX connections_code ON connections (merchant_code, environment, connection_code)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE connections');
    await q.query('DROP TABLE payment_operations');
    await q.query('DROP TABLE payments');
  }
}
