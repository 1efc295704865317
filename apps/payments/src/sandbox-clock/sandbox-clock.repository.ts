import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClockScope } from '@app/clock';
import { SandboxClockEntity } from './sandbox-clock.entity';

/** The payments copy of merchants' sandbox clocks (see SandboxClockEntity). */
@Injectable()
export class SandboxClockRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Offsets only grow, and two advances of one merchant may reach this service in either order (the gateway
   * saves its own copy by compare-and-set), so the copy only ever moves forward.
   */
  async record(merchantCode: string, offsetMs: number, advancedTo: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO sandbox_clocks (merchant_code, offset_ms, advanced_to) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_code) DO UPDATE
       SET offset_ms = EXCLUDED.offset_ms, advanced_to = EXCLUDED.advanced_to, updated_at = now()
       WHERE sandbox_clocks.offset_ms < EXCLUDED.offset_ms`,
      [merchantCode, offsetMs, advancedTo],
    );
  }

  /**
   * The clock scope of an object found without a key (a session row): a sandbox one gets its merchant's
   * offset, so "now" on the keyless paths is the same clock the merchant's keyed calls see.
   */
  async clockScopeOf(scope: ClockScope): Promise<ClockScope> {
    if (scope.environment !== 'sandbox') return { merchantCode: scope.merchantCode, environment: scope.environment };
    const row = await this.db.getRepository(SandboxClockEntity).findOneBy({ merchantCode: scope.merchantCode });
    return { merchantCode: scope.merchantCode, environment: 'sandbox', clockOffsetMs: row?.offsetMs ?? 0 };
  }
}
