import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment, MeterAggregation } from '@app/contracts';
import { bigintNumber } from '@app/database';
import type { Pricing } from '../pricing/pricing';

@Entity('meters')
export class MeterEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: Environment;
  @Column('text') code: string;
  @Column('text') name: string;
  @Column('text') aggregation: MeterAggregation;
  @Column({ name: 'included_units', type: 'bigint', transformer: bigintNumber }) includedUnits: number;
  @Column('jsonb') pricing: Pricing;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
