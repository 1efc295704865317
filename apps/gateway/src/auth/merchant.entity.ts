import { bigintNumber } from '@app/database';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('merchants')
export class Merchant {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text', unique: true }) merchantCode: string;
  /** The integer id plans and subscriptions report; a bigint column read as a number. */
  @Column({ name: 'merchant_id', type: 'bigint', insert: false, update: false, transformer: bigintNumber })
  merchantId: number;
  @Column('text') name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
