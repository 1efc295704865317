import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** The sandbox_clocks table: each merchant's sandbox clock as an offset from real time. */
@Injectable()
export class SandboxClockRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** 0 for a merchant whose clock was never advanced. */
  async offsetOf(merchantCode: string): Promise<number> {
    const rows: Array<{ offset_ms: string }> = await this.db.query(
      'SELECT offset_ms FROM sandbox_clocks WHERE merchant_code = $1',
      [merchantCode],
    );
    return rows.length ? Number(rows[0].offset_ms) : 0;
  }

  /**
   * The offset, with the merchant's row locked until `manager`'s transaction ends: a concurrent advance of
   * the same merchant waits here (at the insert when the row is new) and then reads the offset this one set.
   */
  async lockOffset(manager: EntityManager, merchantCode: string): Promise<number> {
    await manager.query('INSERT INTO sandbox_clocks (merchant_code) VALUES ($1) ON CONFLICT DO NOTHING', [
      merchantCode,
    ]);
    const rows: Array<{ offset_ms: string }> = await manager.query(
      'SELECT offset_ms FROM sandbox_clocks WHERE merchant_code = $1 FOR UPDATE',
      [merchantCode],
    );
    return Number(rows[0].offset_ms);
  }

  async save(
    manager: EntityManager,
    merchantCode: string,
    offsetMs: number,
    advancedTo: Date,
    advancedAt: Date,
  ): Promise<void> {
    await manager.query(
      'UPDATE sandbox_clocks SET offset_ms = $2, advanced_to = $3, advanced_at = $4 WHERE merchant_code = $1',
      [merchantCode, offsetMs, advancedTo, advancedAt],
    );
  }
}
