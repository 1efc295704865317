import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClockScope } from '@app/clock';

/**
 * This service's copy of merchants' sandbox clock offsets, written by each clock advance. Keyed commands carry
 * the offset in their context; the keyless checkout paths (the link id is the credential) read it here.
 */
@Injectable()
export class SandboxClockRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Advances may arrive in either order: the copy only moves forward. */
  async record(merchantCode: string, offsetMs: number, advancedTo: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO sandbox_clocks (merchant_code, offset_ms, advanced_to) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_code) DO UPDATE
       SET offset_ms = EXCLUDED.offset_ms, advanced_to = EXCLUDED.advanced_to, updated_at = now()
       WHERE sandbox_clocks.offset_ms < EXCLUDED.offset_ms`,
      [merchantCode, offsetMs, advancedTo],
    );
  }

  /** The clock scope of a link found without a key: a sandbox link reads its merchant's clock. */
  async clockScopeOf(scope: ClockScope): Promise<ClockScope> {
    if (scope.environment !== 'sandbox') return { merchantCode: scope.merchantCode, environment: scope.environment };
    const rows: { offset_ms: string }[] = await this.db.query(
      'SELECT offset_ms FROM sandbox_clocks WHERE merchant_code = $1',
      [scope.merchantCode],
    );
    return { merchantCode: scope.merchantCode, environment: 'sandbox', clockOffsetMs: Number(rows[0]?.offset_ms ?? 0) };
  }
}
