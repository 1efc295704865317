import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment, PlanInterval } from '@app/contracts';
import { bigintNumber } from '@app/database';

@Entity('plans')
export class PlanEntity {
  /** From the `plans_id_seq` sequence: plan ids are integers on the wire. */
  @PrimaryColumn({ type: 'bigint', transformer: bigintNumber }) id: number;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: Environment;
  @Column({ name: 'merchant_id', type: 'bigint', nullable: true, transformer: bigintNumber }) merchantId: number | null;
  @Column('text') name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column('text') interval: PlanInterval;
  @Column({ name: 'interval_count', type: 'int' }) intervalCount: number;
  @Column({ type: 'bigint', transformer: bigintNumber }) amount: number;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column('int') exponent: number;
  @Column({ name: 'trial_period_days', type: 'int' }) trialPeriodDays: number;
  @Column({ name: 'intro_amount', type: 'bigint', nullable: true, transformer: bigintNumber })
  introAmount: number | null;
  @Column({ name: 'intro_billing_cycles', type: 'int' }) introBillingCycles: number;
  @Column({ name: 'max_billing_cycles', type: 'int' }) maxBillingCycles: number;
  @Column({ name: 'available_countries', type: 'text', array: true }) availableCountries: string[];
  @Column({ name: 'is_active', type: 'boolean' }) isActive: boolean;
  @Column({ name: 'meter_codes', type: 'text', array: true }) meterCodes: string[];
  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true }) archivedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** The amount cycle `n` (1-based) of a plan bills: the intro amount for the first intro cycles. */
export function cycleAmount(plan: PlanEntity, cycle: number): number {
  return plan.introAmount !== null && cycle <= plan.introBillingCycles ? plan.introAmount : plan.amount;
}

/** Whether new subscribers may join (an existing subscription is unaffected either way). */
export const acceptsSubscribers = (plan: PlanEntity): boolean => plan.isActive && plan.archivedAt === null;
