import { MigrationInterface, QueryRunner } from 'typeorm';

/** The table of SandboxClockCopy, in each database that keeps one. */
export class CreateSandboxClocks1765100000000 implements MigrationInterface {
  name = 'CreateSandboxClocks1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_clocks (
        merchant_code text PRIMARY KEY,
        offset_ms bigint NOT NULL CHECK (offset_ms >= 0),
        advanced_to timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sandbox_clocks');
  }
}
