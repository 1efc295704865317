import { MigrationInterface, QueryRunner } from 'typeorm';
import { SecretOwner, WebhookSecretCipher } from '@app/cipher';

type Table = 'webhook_endpoints' | 'webhook_secrets';
interface ClearRow {
  id?: string;
  merchant_code: string;
  environment: string;
  secret: string;
}

const ownerOf = (table: Table, r: ClearRow): SecretOwner =>
  table === 'webhook_endpoints' ? { endpointId: r.id! } : { merchantCode: r.merchant_code, environment: r.environment };

/**
 * Webhook signing secrets leave clear text: each row's secret is sealed (key id and blob columns) with the
 * gateway's key ring (GATEWAY_SECRET_KEYS, formerly WEBHOOK_SECRET_KEYS), then the clear column is dropped. A
 * migration of its own per deployment's keys, hence built from the cipher at start-up.
 */
export function encryptWebhookSecrets(cipher: WebhookSecretCipher): new () => MigrationInterface {
  return class EncryptWebhookSecrets1766000000000 implements MigrationInterface {
    name = 'EncryptWebhookSecrets1766000000000';

    async up(q: QueryRunner): Promise<void> {
      for (const table of ['webhook_endpoints', 'webhook_secrets'] as const) {
        await q.query(`ALTER TABLE ${table} ADD COLUMN secret_key_id text, ADD COLUMN secret_sealed bytea`);
        const rows: ClearRow[] = await q.query(`SELECT * FROM ${table}`);
        for (const r of rows) {
          const sealed = cipher.seal(ownerOf(table, r), r.secret);
          const where = table === 'webhook_endpoints' ? 'id = $3' : 'merchant_code = $3 AND environment = $4';
          const keys = table === 'webhook_endpoints' ? [r.id] : [r.merchant_code, r.environment];
          await q.query(`UPDATE ${table} SET secret_key_id = $1, secret_sealed = $2 WHERE ${where}`, [
            sealed.keyId,
            sealed.blob,
            ...keys,
          ]);
        }
        await q.query(
          `ALTER TABLE ${table} ALTER COLUMN secret_key_id SET NOT NULL, ALTER COLUMN secret_sealed SET NOT NULL, DROP COLUMN secret`,
        );
      }
    }

    async down(q: QueryRunner): Promise<void> {
      for (const table of ['webhook_endpoints', 'webhook_secrets'] as const) {
        await q.query(`ALTER TABLE ${table} ADD COLUMN secret text`);
        const rows: Array<ClearRow & { secret_key_id: string; secret_sealed: Buffer }> = await q.query(
          `SELECT * FROM ${table}`,
        );
        for (const r of rows) {
          const secret = cipher.open(ownerOf(table, r), { keyId: r.secret_key_id, blob: r.secret_sealed });
          const where = table === 'webhook_endpoints' ? 'id = $2' : 'merchant_code = $2 AND environment = $3';
          const keys = table === 'webhook_endpoints' ? [r.id] : [r.merchant_code, r.environment];
          await q.query(`UPDATE ${table} SET secret = $1 WHERE ${where}`, [secret, ...keys]);
        }
        await q.query(
          `ALTER TABLE ${table} ALTER COLUMN secret SET NOT NULL, DROP COLUMN secret_key_id, DROP COLUMN secret_sealed`,
        );
      }
    }
  };
}
