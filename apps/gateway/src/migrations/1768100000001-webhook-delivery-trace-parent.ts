import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * With tracing on, a webhook delivery keeps the W3C `traceparent` of the event's consumption (NULL when off):
 * each try of it, in the delivery loop's own trace, links to the trace of the event it delivers.
 */
export class WebhookDeliveryTraceParent1768100000001 implements MigrationInterface {
  name = 'WebhookDeliveryTraceParent1768100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries ADD COLUMN trace_parent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries DROP COLUMN trace_parent');
  }
}
