import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
// The statement helpers' own module: the library's index would close an import cycle
// (@app/database → @app/observability → @app/messaging → @app/clock).
import { runStatement, statement } from '../../database/src/pipelined/prepared';
import type { ClockScope } from './clock';

const RECORD = statement(
  'sandbox_clocks_record',
  `INSERT INTO sandbox_clocks (merchant_code, offset_ms, advanced_to) VALUES ($1, $2, $3)
   ON CONFLICT (merchant_code) DO UPDATE
   SET offset_ms = EXCLUDED.offset_ms, advanced_to = EXCLUDED.advanced_to, updated_at = now()
   WHERE sandbox_clocks.offset_ms < EXCLUDED.offset_ms`,
);
const OFFSET = statement('sandbox_clocks_offset', 'SELECT offset_ms FROM sandbox_clocks WHERE merchant_code = $1');

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
    await runStatement(this.db, RECORD, [merchantCode, offsetMs, advancedTo]);
  }

  /** The clock scope of an object found without a key: a sandbox one reads its merchant's clock. */
  async clockScopeOf(scope: ClockScope): Promise<ClockScope> {
    if (scope.environment !== 'sandbox') return { merchantCode: scope.merchantCode, environment: scope.environment };
    const rows = await runStatement<{ offset_ms: string }>(this.db, OFFSET, [scope.merchantCode]);
    return { merchantCode: scope.merchantCode, environment: 'sandbox', clockOffsetMs: Number(rows[0]?.offset_ms ?? 0) };
  }
}
