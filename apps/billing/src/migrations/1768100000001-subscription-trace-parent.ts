import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * With tracing on, a subscription keeps the W3C `traceparent` of the request that created it (NULL when off,
 * and for the subscriptions created before): the renewal batches that charge it, each a trace of its own,
 * link to that trace.
 */
export class SubscriptionTraceParent1768100000001 implements MigrationInterface {
  name = 'SubscriptionTraceParent1768100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE subscriptions ADD COLUMN trace_parent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE subscriptions DROP COLUMN trace_parent');
  }
}
