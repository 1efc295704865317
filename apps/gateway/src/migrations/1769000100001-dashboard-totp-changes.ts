import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A second factor changes only with the first and the second (docs/dashboard.md, Second factor): a new TOTP
 * secret waits in the `totp_pending_*` columns until a code from it is confirmed, while the active one stays
 * as it was; the active secret is there exactly when TOTP is on. Every change is an event of the user's
 * audit trail (`dashboard_audit_events`).
 */
export class DashboardTotpChanges1769000100001 implements MigrationInterface {
  name = 'DashboardTotpChanges1769000100001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE dashboard_users
        ADD COLUMN totp_pending_key_id text,
        ADD COLUMN totp_pending_sealed bytea,
        ADD COLUMN totp_pending_at timestamptz`);
    // An enrolment started and never confirmed was a secret beside totp_enabled = false: it becomes pending.
    await q.query(`
      UPDATE dashboard_users
      SET totp_pending_key_id = totp_key_id, totp_pending_sealed = totp_sealed, totp_pending_at = created_at,
          totp_key_id = NULL, totp_sealed = NULL, totp_last_step = NULL
      WHERE NOT totp_enabled AND totp_sealed IS NOT NULL`);
    await q.query(`
      ALTER TABLE dashboard_users
        ADD CONSTRAINT dashboard_users_totp_active CHECK (totp_enabled = (totp_sealed IS NOT NULL)),
        ADD CONSTRAINT dashboard_users_totp_pending CHECK (
          (totp_pending_sealed IS NULL) = (totp_pending_at IS NULL)
          AND (totp_pending_sealed IS NULL) = (totp_pending_key_id IS NULL))`);
    await q.query(`
      CREATE TABLE dashboard_audit_events (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('totp.enabled', 'totp.replaced', 'totp.disabled')),
        session_id uuid,
        client_address text,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX dashboard_audit_events_user ON dashboard_audit_events (user_id, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE dashboard_audit_events');
    await q.query(`
      ALTER TABLE dashboard_users
        DROP CONSTRAINT dashboard_users_totp_pending,
        DROP CONSTRAINT dashboard_users_totp_active`);
    await q.query(`
      UPDATE dashboard_users SET totp_key_id = totp_pending_key_id, totp_sealed = totp_pending_sealed
      WHERE NOT totp_enabled AND totp_pending_sealed IS NOT NULL`);
    await q.query(`
      ALTER TABLE dashboard_users
        DROP COLUMN totp_pending_at, DROP COLUMN totp_pending_sealed, DROP COLUMN totp_pending_key_id`);
  }
}
