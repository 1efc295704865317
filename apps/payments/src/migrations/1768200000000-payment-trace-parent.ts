import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * With tracing on, a payment and a 3DS session keep the W3C `traceparent` of the request that created them
 * (NULL when off, and for the rows created before): the hold-expiry and 3DS-expiry runs that end them, traces
 * of their own, link to that trace.
 */
export class PaymentTraceParent1768200000000 implements MigrationInterface {
  name = 'PaymentTraceParent1768200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payments ADD COLUMN trace_parent text');
    await q.query('ALTER TABLE payment_sessions ADD COLUMN trace_parent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_sessions DROP COLUMN trace_parent');
    await q.query('ALTER TABLE payments DROP COLUMN trace_parent');
  }
}
