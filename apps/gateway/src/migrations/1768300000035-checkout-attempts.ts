import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hosted checkout's card-testing limit, shared by every gateway replica: one row per attempt on a payment
 * link, reserved before the attempt runs. A row counts against its client address and its link while
 * `counts_until` is ahead: an attempt in flight, a 3DS challenge still open (and, once its session ends
 * unfinished, as a decline), a decline for the window after it.
 */
export class CheckoutAttempts1768300000035 implements MigrationInterface {
  name = 'CheckoutAttempts1768300000035';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE checkout_attempts (
        id uuid PRIMARY KEY,
        address text NOT NULL,
        link_id text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_flight', 'challenge', 'declined')),
        session_id text,
        challenge_ends_at timestamptz,
        counts_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX checkout_attempts_address ON checkout_attempts (address, counts_until)');
    await q.query('CREATE INDEX checkout_attempts_link ON checkout_attempts (link_id, counts_until)');
    await q.query('CREATE INDEX checkout_attempts_counts_until ON checkout_attempts (counts_until)');
    await q.query(
      'CREATE UNIQUE INDEX checkout_attempts_session ON checkout_attempts (session_id) WHERE session_id IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE checkout_attempts');
  }
}
