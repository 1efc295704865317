import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plans, meters, subscriptions, invoices and the idempotency keys of billing. Subscriptions
 * carry the columns the renewal scheduler claims rows by (`next_billing_date` per status, FOR UPDATE SKIP
 * LOCKED); one invoice per subscription period is a unique constraint.
 */
export class Billing1766100000000 implements MigrationInterface {
  name = 'Billing1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE plans (
        id bigserial PRIMARY KEY,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        merchant_id bigint,
        name text NOT NULL,
        description text,
        interval text NOT NULL CHECK (interval IN ('day', 'week', 'month', 'year')),
        interval_count int NOT NULL CHECK (interval_count >= 1),
        amount bigint NOT NULL CHECK (amount >= 0),
        currency char(3) NOT NULL,
        exponent int NOT NULL,
        trial_period_days int NOT NULL DEFAULT 0,
        intro_amount bigint,
        intro_billing_cycles int NOT NULL DEFAULT 0,
        max_billing_cycles int NOT NULL DEFAULT 0,
        available_countries text[] NOT NULL DEFAULT '{}',
        is_active boolean NOT NULL DEFAULT true,
        meter_codes text[] NOT NULL DEFAULT '{}',
        archived_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX plans_scope ON plans (merchant_code, environment, id DESC)');
    await q.query(`
      CREATE TABLE meters (
        id uuid PRIMARY KEY,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        code text NOT NULL,
        name text NOT NULL,
        aggregation text NOT NULL CHECK (aggregation IN ('sum', 'count', 'max', 'last')),
        included_units bigint NOT NULL DEFAULT 0,
        pricing jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT meters_code UNIQUE (merchant_code, environment, code)
      )`);
    await q.query(`
      CREATE TABLE subscriptions (
        id uuid PRIMARY KEY,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        merchant_id bigint,
        plan_id bigint NOT NULL REFERENCES plans(id),
        status text NOT NULL CHECK (status IN
          ('pending', 'trialing', 'active', 'past_due', 'suspended', 'paused', 'cancelled', 'completed')),
        customer_email text NOT NULL,
        customer_name text,
        customer_document text,
        card_brand text,
        card_token text NOT NULL,
        network_transaction_id text,
        network_reference_id text,
        billing_anchor timestamptz,
        current_period_start timestamptz,
        current_period_end timestamptz,
        next_billing_date timestamptz,
        trial_start timestamptz,
        trial_end timestamptz,
        start_at timestamptz,
        dunning_attempt_count int NOT NULL DEFAULT 0,
        cycles_completed int NOT NULL DEFAULT 0,
        activated_at timestamptz,
        cancelled_at timestamptz,
        paused_at timestamptz,
        suspended_at timestamptz,
        completed_at timestamptz,
        parent_subscription_id uuid REFERENCES subscriptions(id),
        propagate_lifecycle boolean NOT NULL DEFAULT false,
        pending_plan_id bigint REFERENCES plans(id),
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX subscriptions_scope ON subscriptions (merchant_code, environment, id DESC)');
    await q.query('CREATE INDEX subscriptions_plan ON subscriptions (plan_id, status)');
    await q.query(
      'CREATE INDEX subscriptions_children ON subscriptions (parent_subscription_id) WHERE parent_subscription_id IS NOT NULL',
    );
    // The renewal / trial-end / deferred-start / dunning scheduler claims due rows by this index.
    await q.query(`
      CREATE INDEX subscriptions_due ON subscriptions (next_billing_date)
      WHERE status IN ('pending', 'trialing', 'active', 'past_due')`);
    await q.query(`
      CREATE TABLE invoices (
        id uuid PRIMARY KEY,
        subscription_id uuid NOT NULL REFERENCES subscriptions(id),
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        status text NOT NULL CHECK (status IN ('open', 'paid', 'failed', 'void')),
        amount bigint NOT NULL CHECK (amount >= 0),
        currency char(3) NOT NULL,
        exponent int NOT NULL,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        payment_attempt_count int NOT NULL DEFAULT 0,
        lines jsonb NOT NULL DEFAULT '[]',
        attempts jsonb NOT NULL DEFAULT '[]',
        paid_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT invoices_subscription_period UNIQUE (subscription_id, period_start)
      )`);
    await q.query('CREATE INDEX invoices_scope ON invoices (merchant_code, environment, id)');
    await q.query(`CREATE INDEX invoices_open ON invoices (subscription_id) WHERE status = 'open'`);
    await q.query(`
      CREATE TABLE billing_idempotency (
        merchant_code text NOT NULL,
        environment text NOT NULL,
        key text NOT NULL,
        operation text NOT NULL,
        request_hash char(64) NOT NULL,
        resource_id uuid NOT NULL,
        response jsonb,
        reserved_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (merchant_code, environment, key)
      )`);
    await q.query('CREATE INDEX billing_idempotency_created ON billing_idempotency (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE billing_idempotency');
    await q.query('DROP TABLE invoices');
    await q.query('DROP TABLE subscriptions');
    await q.query('DROP TABLE meters');
    await q.query('DROP TABLE plans');
  }
}
