import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Forgotten passwords and the audit log (docs/dashboard.md, Team; docs/api.md, Audit log).
 *
 * - `dashboard_password_resets`: one-time reset links, stored as the SHA-256 of their token, good for an hour.
 * - `dashboard_audit_events` (sec-dash's trail of TOTP changes) becomes the audit log of every change to
 *   users, keys, endpoints, connections, policies and money: who (`user_id` and `actor_email` for a dashboard
 *   user, `api_key_id` for a key, `channel`), on which merchant and environment, what (`type`, `target`, `detail`), from which
 *   address, when. It outlives the users it names (no foreign key: removing a user deletes none of its rows),
 *   and is append-only: a trigger refuses UPDATE, DELETE and TRUNCATE.
 */
export class TeamAndAuditLog1769000700002 implements MigrationInterface {
  name = 'TeamAndAuditLog1769000700002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard_password_resets (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX dashboard_password_resets_user ON dashboard_password_resets (user_id, created_at)');

    await q.query(`
      ALTER TABLE dashboard_audit_events
        DROP CONSTRAINT dashboard_audit_events_user_id_fkey,
        DROP CONSTRAINT dashboard_audit_events_type_check,
        ALTER COLUMN user_id DROP NOT NULL,
        ADD COLUMN channel text NOT NULL DEFAULT 'dashboard' CHECK (channel IN ('dashboard', 'api', 'admin')),
        ADD COLUMN api_key_id text,
        ADD COLUMN actor_email text,
        ADD COLUMN merchant_id uuid,
        ADD COLUMN environment text,
        ADD COLUMN target text,
        ADD COLUMN detail jsonb NOT NULL DEFAULT '{}',
        ADD COLUMN idempotency_key text`);
    await q.query('ALTER TABLE dashboard_audit_events ALTER COLUMN channel DROP DEFAULT');
    await q.query(`
      CREATE INDEX dashboard_audit_events_merchant ON dashboard_audit_events (merchant_id, created_at DESC, id DESC)
      WHERE merchant_id IS NOT NULL`);
    // A retry with the same Idempotency-Key answers the first change again: it is one change, one entry.
    await q.query(`
      CREATE UNIQUE INDEX dashboard_audit_events_once ON dashboard_audit_events
        (merchant_id, environment, type, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION dashboard_audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'dashboard_audit_events is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`
      CREATE TRIGGER dashboard_audit_events_no_change BEFORE UPDATE OR DELETE ON dashboard_audit_events
      FOR EACH ROW EXECUTE FUNCTION dashboard_audit_events_append_only()`);
    await q.query(`
      CREATE TRIGGER dashboard_audit_events_no_truncate BEFORE TRUNCATE ON dashboard_audit_events
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_audit_events_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER dashboard_audit_events_no_truncate ON dashboard_audit_events');
    await q.query('DROP TRIGGER dashboard_audit_events_no_change ON dashboard_audit_events');
    await q.query('DROP FUNCTION dashboard_audit_events_append_only()');
    await q.query('DELETE FROM dashboard_audit_events WHERE user_id IS NULL OR type NOT LIKE $1', ['totp.%']);
    await q.query(
      'DELETE FROM dashboard_audit_events e WHERE NOT EXISTS (SELECT 1 FROM dashboard_users u WHERE u.id = e.user_id)',
    );
    await q.query('DROP INDEX dashboard_audit_events_once');
    await q.query('DROP INDEX dashboard_audit_events_merchant');
    await q.query(`
      ALTER TABLE dashboard_audit_events
        DROP COLUMN idempotency_key, DROP COLUMN detail, DROP COLUMN target, DROP COLUMN environment, DROP COLUMN merchant_id,
        DROP COLUMN actor_email, DROP COLUMN api_key_id, DROP COLUMN channel,
        ALTER COLUMN user_id SET NOT NULL,
        ADD CONSTRAINT dashboard_audit_events_type_check CHECK (type IN ('totp.enabled', 'totp.replaced', 'totp.disabled')),
        ADD CONSTRAINT dashboard_audit_events_user_id_fkey FOREIGN KEY (user_id) REFERENCES dashboard_users (id) ON DELETE CASCADE`);
    await q.query('DROP TABLE dashboard_password_resets');
  }
}
