import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePaymentSessions1764100000002 implements MigrationInterface {
  name = 'CreatePaymentSessions1764100000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_sessions (
        id text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('threeds', 'apm')),
        payment_id uuid NOT NULL,
        merchant_code text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        status text NOT NULL,
        outcome text,
        intent text,
        connection_code text,
        acquirer_reference text,
        card_key_id text,
        card_sealed bytea,
        display jsonb NOT NULL,
        action jsonb NOT NULL,
        apm jsonb,
        expires_at timestamptz NOT NULL,
        completed_at timestamptz,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX payment_sessions_payment ON payment_sessions (payment_id, kind)`);
    // The expiry sweep looks only at 3DS sessions nobody has resumed yet.
    await q.query(
      `CREATE INDEX payment_sessions_due ON payment_sessions (expires_at)
       WHERE kind = 'threeds' AND status IN ('pending', 'authenticated', 'failed')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payment_sessions`);
  }
}
