import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * With tracing on, a payment link keeps the W3C `traceparent` of the request that created it (NULL when off,
 * and for the links created before): the expiry run that expires it, a trace of its own, links to that trace.
 */
export class PaymentLinkTraceParent1768200000001 implements MigrationInterface {
  name = 'PaymentLinkTraceParent1768200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_links ADD COLUMN trace_parent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_links DROP COLUMN trace_parent');
  }
}
