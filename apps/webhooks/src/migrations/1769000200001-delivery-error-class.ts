import { MigrationInterface, QueryRunner } from 'typeorm';
import { DELIVERY_ERRORS } from '@app/contracts';

const CLASSES = DELIVERY_ERRORS.map((c) => `'${c}'`).join(', ');

/**
 * A try's `error` is one of the delivery error classes (DELIVERY_ERRORS), never the network's own text: the
 * tries logged before keep only the class their text names, and a check refuses any other value.
 */
export class DeliveryErrorClass1769000200001 implements MigrationInterface {
  name = 'DeliveryErrorClass1769000200001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE webhook_attempts SET error = CASE
        WHEN error ~ '^HTTP [0-9]+$' THEN 'http_status'
        WHEN error ~ 'ECONNREFUSED' THEN 'refused'
        WHEN error ~ 'ECONNRESET|ECONNABORTED|EPIPE|socket hang up' THEN 'reset'
        WHEN error ~ 'ETIMEDOUT|no answer within|timed out' THEN 'timeout'
        WHEN error ~ 'EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN' THEN 'unreachable'
        WHEN error ~ '^cannot resolve|has no address$|ENOTFOUND|EAI_' THEN 'dns'
        WHEN error ~* 'certificate|ssl|tls|EPROTO|CERT_|self.signed|wrong version' THEN 'tls'
        WHEN error ~ '^url resolves to a private' THEN 'private_target'
        WHEN error ~ '^url must' THEN 'invalid_url'
        WHEN error IN ('endpoint deleted', 'endpoint merged into an older one') THEN 'endpoint_deleted'
        WHEN error = 'endpoint disabled' THEN 'endpoint_disabled'
        WHEN error = 'no signing secret' THEN 'no_secret'
        ELSE 'network' END
      WHERE error IS NOT NULL AND error NOT IN (${CLASSES})`);
    await q.query(
      `ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_error_class
         CHECK (error IS NULL OR error IN (${CLASSES}))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_attempts DROP CONSTRAINT IF EXISTS webhook_attempts_error_class');
  }
}
