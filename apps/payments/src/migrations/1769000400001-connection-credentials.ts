import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Connections to real providers: their credentials sealed under CONNECTION_CREDENTIAL_KEYS (the key id beside
 * the ciphertext, for rotation; the last four characters of each apart, for the admin API), and an optional
 * endpoint. Production is never simulated (docs/connectors.md): the default production connections to the simulator
 * that every merchant used to get go; a production simulator connection is only ever added explicitly.
 */
export class ConnectionCredentials1769000400001 implements MigrationInterface {
  name = 'ConnectionCredentials1769000400001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE connections
        ADD COLUMN endpoint text,
        ADD COLUMN credentials_key_id text,
        ADD COLUMN credentials_blob bytea,
        ADD COLUMN credential_hints jsonb,
        ADD COLUMN credentials_updated_at timestamptz,
        ADD CONSTRAINT connections_credentials_sealed CHECK (
          (credentials_key_id IS NULL) = (credentials_blob IS NULL)
          AND (credentials_blob IS NULL) = (credential_hints IS NULL)
          AND (credentials_blob IS NULL) = (credentials_updated_at IS NULL)
        )`);
    await q.query(`DELETE FROM connections WHERE environment = 'production' AND is_default`);
    // The re-encryption sweep finds rows sealed under an older key by their key id.
    await q.query(
      'CREATE INDEX connections_credentials_key ON connections (credentials_key_id) WHERE credentials_key_id IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX connections_credentials_key');
    await q.query(`
      ALTER TABLE connections
        DROP CONSTRAINT connections_credentials_sealed,
        DROP COLUMN endpoint,
        DROP COLUMN credentials_key_id,
        DROP COLUMN credentials_blob,
        DROP COLUMN credential_hints,
        DROP COLUMN credentials_updated_at`);
  }
}
