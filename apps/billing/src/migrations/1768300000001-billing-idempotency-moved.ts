import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing's Idempotency-Keys move from `billing_idempotency` to the `idempotency_keys` every service keeps
 * (@app/idempotency, leased keys). The keys still live (younger than their 24 hours) are copied: an answered
 * one replays, a released one keeps its resource id and fingerprint, and a fingerprint of billing's first
 * algorithm (the body as sent, unversioned) is marked `v1-as-sent:` so it is compared by that algorithm.
 *
 * Replicas of the previous release still write `billing_idempotency` during a rolling update: a trigger copies
 * what they write, so a retry that reaches a new replica finds it. The old table, its trigger and function are
 * dropped by a later release (expand/contract, k8s/README.md), once no replica of the previous one runs.
 */
export class BillingIdempotencyMoved1768300000001 implements MigrationInterface {
  name = 'BillingIdempotencyMoved1768300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION billing_idempotency_forward() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO idempotency_keys AS k (merchant_code, environment, idempotency_key, operation, request_hash,
            response_status, response_body, created_at, resource_id, reserved_until)
        VALUES (NEW.merchant_code, NEW.environment, NEW.key, NEW.operation,
            CASE WHEN NEW.request_hash LIKE 'v2:%' THEN NEW.request_hash ELSE 'v1-as-sent:' || NEW.request_hash END,
            CASE WHEN NEW.response IS NULL THEN NULL ELSE 200 END, NEW.response::json, NEW.created_at,
            NEW.resource_id, NEW.reserved_until)
        ON CONFLICT (merchant_code, environment, idempotency_key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
              response_body = EXCLUDED.response_body, reserved_until = EXCLUDED.reserved_until
          WHERE k.resource_id = EXCLUDED.resource_id AND k.response_status IS NULL;
        RETURN NULL;
      END $$`);
    await q.query('DROP TRIGGER IF EXISTS billing_idempotency_forward ON billing_idempotency');
    await q.query(
      `CREATE TRIGGER billing_idempotency_forward AFTER INSERT OR UPDATE ON billing_idempotency
       FOR EACH ROW EXECUTE FUNCTION billing_idempotency_forward()`,
    );
    // Touching each live row once fires the trigger: the copy and the rows written from now on take one path.
    await q.query(`UPDATE billing_idempotency SET key = key WHERE created_at > now() - interval '24 hours'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS billing_idempotency_forward ON billing_idempotency');
    await q.query('DROP FUNCTION IF EXISTS billing_idempotency_forward()');
  }
}
