import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * With tracing on, an outbox row keeps the W3C `traceparent` of the work that wrote it (NULL when off), so a
 * row published by a claim (written outside a pipelined transaction, or taken over after a crash or a failed
 * publish) is still published as a child of that work, and its consumers join its trace.
 */
export class OutboxTraceParent1768100000000 implements MigrationInterface {
  name = 'OutboxTraceParent1768100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ADD COLUMN trace_parent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox DROP COLUMN trace_parent');
  }
}
