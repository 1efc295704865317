import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dashboard users (people, not keys: docs/dashboard.md), their role per merchant, their one-time invitations,
 * their server-side sessions and the failed sign-ins the lockout counts. Secrets are never stored: passwords
 * as argon2id hashes, invitation and session tokens as SHA-256 of 256-bit random tokens, TOTP secrets sealed
 * with the webhook secret keyring (libs/cipher).
 */
export class DashboardUsers1768400000003 implements MigrationInterface {
  name = 'DashboardUsers1768400000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard_users (
        id uuid PRIMARY KEY,
        email text NOT NULL CONSTRAINT dashboard_users_email UNIQUE,
        password_hash text,
        totp_key_id text,
        totp_sealed bytea,
        totp_enabled boolean NOT NULL DEFAULT false,
        totp_last_step bigint,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE dashboard_memberships (
        user_id uuid NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
        merchant_id uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'developer', 'support')),
        PRIMARY KEY (user_id, merchant_id)
      )`);
    await q.query(`
      CREATE TABLE dashboard_invitations (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX dashboard_invitations_user ON dashboard_invitations (user_id)');
    await q.query(`
      CREATE TABLE dashboard_sessions (
        id uuid PRIMARY KEY,
        token_hash text NOT NULL CONSTRAINT dashboard_sessions_token UNIQUE,
        user_id uuid NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        ended_at timestamptz
      )`);
    await q.query('CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id) WHERE ended_at IS NULL');
    await q.query(`
      CREATE TABLE dashboard_login_failures (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        failed_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX dashboard_login_failures_email ON dashboard_login_failures (email, failed_at)');
    // Dashboard keys have a name (GET /dashboard/api/keys); the admin API's keys have none.
    await q.query('ALTER TABLE api_keys ADD COLUMN name text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE api_keys DROP COLUMN name');
    await q.query('DROP TABLE dashboard_login_failures');
    await q.query('DROP TABLE dashboard_sessions');
    await q.query('DROP TABLE dashboard_invitations');
    await q.query('DROP TABLE dashboard_memberships');
    await q.query('DROP TABLE dashboard_users');
  }
}
