import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * With tracing on, a link use keeps the W3C `traceparent` of the checkout request that reserved it (NULL when
 * off, and for the uses reserved before): the reconcile run that checks it once lapsed, a trace of its own,
 * links to that trace.
 */
export class LinkUseTraceParent1768100000003 implements MigrationInterface {
  name = 'LinkUseTraceParent1768100000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_link_uses ADD COLUMN trace_parent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_link_uses DROP COLUMN trace_parent');
  }
}
