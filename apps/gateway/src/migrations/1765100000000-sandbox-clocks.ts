import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each merchant's sandbox clock, as its offset from real time. No row: the clock is real time.
 * An advance locks the row (FOR UPDATE), so two advances of one merchant run one after the other.
 */
export class SandboxClocks1765100000000 implements MigrationInterface {
  name = 'SandboxClocks1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_clocks (
        merchant_code text PRIMARY KEY REFERENCES merchants(merchant_code) ON DELETE CASCADE,
        offset_ms bigint NOT NULL DEFAULT 0 CHECK (offset_ms >= 0),
        advanced_to timestamptz,
        advanced_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sandbox_clocks');
  }
}
