import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import type { ClockScope } from './clock';

/**
 * A service's copy of merchants' sandbox clock offsets, written by each clock advance. The
 * gateway owns the clocks and sends the offset with every keyed command; this copy serves a service's keyless
 * paths (3DS resume and hosted pages in payments, the checkout in payment-links), where an object found by
 * its id, not a key, names the merchant.
 */
@Injectable()
export class SandboxClockCopy {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Offsets only grow and two advances may arrive in either order: the copy only ever moves forward. */
  async record(merchantCode: string, offsetMs: number, advancedTo: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO sandbox_clocks (merchant_code, offset_ms, advanced_to) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_code) DO UPDATE
       SET offset_ms = EXCLUDED.offset_ms, advanced_to = EXCLUDED.advanced_to, updated_at = now()
       WHERE sandbox_clocks.offset_ms < EXCLUDED.offset_ms`,
      [merchantCode, offsetMs, advancedTo],
    );
  }

  /** The clock scope of an object found without a key: a sandbox one reads its merchant's clock. */
  async clockScopeOf(scope: ClockScope): Promise<ClockScope> {
    if (scope.environment !== 'sandbox') return { merchantCode: scope.merchantCode, environment: scope.environment };
    const rows: { offset_ms: string }[] = await this.db.query(
      'SELECT offset_ms FROM sandbox_clocks WHERE merchant_code = $1',
      [scope.merchantCode],
    );
    return { merchantCode: scope.merchantCode, environment: 'sandbox', clockOffsetMs: Number(rows[0]?.offset_ms ?? 0) };
  }
}

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
