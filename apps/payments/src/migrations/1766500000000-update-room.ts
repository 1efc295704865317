import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables whose rows are updated soon after they are written keep room on each page (fillfactor 70), so an
 * update that changes no indexed column stays on its page as a heap-only tuple: no new index entries, and
 * the page prunes the old version itself, without waiting for VACUUM.
 */
export class UpdateRoom1766500000000 implements MigrationInterface {
  name = 'UpdateRoom1766500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['outbox', 'idempotency_keys']) await q.query(`ALTER TABLE ${table} SET (fillfactor = 70)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['outbox', 'idempotency_keys']) await q.query(`ALTER TABLE ${table} RESET (fillfactor)`);
  }
}
