import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runStatement, statement } from '@app/database';

const OFFSET = statement(
  'gateway_sandbox_clocks_offset',
  'SELECT offset_ms FROM sandbox_clocks WHERE merchant_code = $1',
);
const COMPARE_AND_SET = statement(
  'gateway_sandbox_clocks_compare_and_set',
  `INSERT INTO sandbox_clocks AS c (merchant_code, offset_ms, advanced_to, advanced_at) VALUES ($1, $3, $4, $5)
   ON CONFLICT (merchant_code) DO UPDATE SET offset_ms = $3, advanced_to = $4, advanced_at = $5
     WHERE c.offset_ms = $2
   RETURNING merchant_code`,
);

/** The sandbox_clocks table: each merchant's sandbox clock as an offset from real time. */
@Injectable()
export class SandboxClockRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** 0 for a merchant whose clock was never advanced. */
  async offsetOf(merchantCode: string): Promise<number> {
    const rows = await runStatement<{ offset_ms: string }>(this.db, OFFSET, [merchantCode]);
    return rows.length ? Number(rows[0].offset_ms) : 0;
  }

  /**
   * Sets the offset if it is still `expected`, i.e. no other advance of this merchant landed since it was read
   * (offsets only grow); answers whether it did. A merchant without a row has offset 0.
   */
  async compareAndSet(
    merchantCode: string,
    expected: number,
    offsetMs: number,
    advancedTo: Date,
    advancedAt: Date,
  ): Promise<boolean> {
    const values = [merchantCode, expected, offsetMs, advancedTo, advancedAt];
    const rows = await runStatement(this.db, COMPARE_AND_SET, values);
    return rows.length === 1;
  }
}
