import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment, InvoiceAttemptView, InvoiceLineView } from '@app/contracts';
import type { InvoiceState } from './invoice-state';
import { bigintNumber } from '@app/database';

/** One invoice per subscription period (unique constraint on subscription and period start). */
@Entity('invoices')
export class InvoiceEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'subscription_id', type: 'uuid' }) subscriptionId: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: Environment;
  /** Set only through the transition table (invoice-state.ts). */
  @Column('text') status: InvoiceState;
  @Column({ type: 'bigint', transformer: bigintNumber }) amount: number;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column('int') exponent: number;
  @Column({ name: 'period_start', type: 'timestamptz' }) periodStart: Date;
  @Column({ name: 'period_end', type: 'timestamptz' }) periodEnd: Date;
  @Column({ name: 'payment_attempt_count', type: 'int' }) paymentAttemptCount: number;
  @Column('jsonb') lines: InvoiceLineView[];
  @Column('jsonb') attempts: InvoiceAttemptView[];
  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true }) paidAt: Date | null;
  /** When its dunning run started (its renewal declined); null: it never entered dunning. */
  @Column({ name: 'dunning_started_at', type: 'timestamptz', nullable: true }) dunningStartedAt?: Date | null;
  /** The refusal reason code that started the run (`failed`: a processing failure). */
  @Column({ name: 'dunning_reason', type: 'text', nullable: true }) dunningReason?: string | null;
  /** The connection that declined the renewal (null: no charge was sent). */
  @Column({ name: 'dunning_connection', type: 'text', nullable: true }) dunningConnection?: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
