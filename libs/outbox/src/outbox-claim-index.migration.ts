import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The relay claims in (created_at, id) order; with both in the index an ordered index scan answers the claim
 * and stops at its LIMIT (see runQueueClaim), instead of sorting every unpublished entry.
 */
export class OutboxClaimIndex1766400000000 implements MigrationInterface {
  name = 'OutboxClaimIndex1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX outbox_unpublished');
    await q.query('CREATE INDEX outbox_unpublished ON outbox (created_at, id) WHERE published_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX outbox_unpublished');
    await q.query('CREATE INDEX outbox_unpublished ON outbox (created_at) WHERE published_at IS NULL');
  }
}
