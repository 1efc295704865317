import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '@app/database';

/**
 * One reported usage event. It belongs to a subscription and a meter, which carry the merchant
 * and environment; `id` is a UUID v7, so it also orders events recorded at the same `occurredAt` (the tie
 * break of the `last` aggregation). `idempotencyKey` is unique per meter.
 */
@Entity('usage_events')
export class UsageEventEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'subscription_id', type: 'uuid' }) subscriptionId: string;
  @Column({ name: 'meter_id', type: 'uuid' }) meterId: string;
  @Column({ type: 'bigint', transformer: bigintNumber }) quantity: number;
  @Column({ name: 'occurred_at', type: 'timestamptz' }) occurredAt: Date;
  @Column({ name: 'idempotency_key', type: 'text', nullable: true }) idempotencyKey: string | null;
  /** On the merchant's clock, like every sandbox timestamp. */
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
