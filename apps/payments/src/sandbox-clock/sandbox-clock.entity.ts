import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '@app/database';

/**
 * The payments service's copy of a merchant's sandbox clock, written by each clock advance. The gateway owns
 * the clock and sends its offset with every keyed command; this copy serves the keyless paths (3DS resume,
 * hosted pages), where the session and not a key names the merchant.
 */
@Entity('sandbox_clocks')
export class SandboxClockEntity {
  @PrimaryColumn({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  /** How far the merchant's sandbox clock runs ahead of real time. */
  @Column({ name: 'offset_ms', type: 'bigint', transformer: bigintNumber }) offsetMs: number;
  /** The time of the latest advance. */
  @Column({ name: 'advanced_to', type: 'timestamptz' }) advancedTo: Date;
}
