import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * With tracing on, an acquirer attempt keeps the W3C `traceparent` of the request that reserved it (NULL when
 * off, and for the attempts reserved before): the recovery sweep that resolves it, a trace of its own, links to
 * that trace.
 */
export class AcquirerAttemptTraceParent1768100000002 implements MigrationInterface {
  name = 'AcquirerAttemptTraceParent1768100000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE acquirer_attempts ADD COLUMN trace_parent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE acquirer_attempts DROP COLUMN trace_parent');
  }
}
