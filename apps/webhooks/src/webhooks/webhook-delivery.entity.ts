import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import type { DeliveryError } from '@app/contracts';

export type DeliveryStatus = 'pending' | 'succeeded' | 'dead';
export type AttemptStatus = 'pending' | 'succeeded' | 'failed' | 'dead';

/**
 * One event for one target (an endpoint, or the payment's webhookUrl). UNIQUE (event_id, target) is what makes
 * the JetStream consumer idempotent: a redelivered event inserts nothing.
 */
@Entity('webhook_deliveries')
@Unique('webhook_deliveries_event_target', ['eventId', 'target'])
export class WebhookDelivery {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'event_id', type: 'uuid' }) eventId: string;
  @Column({ name: 'event_type', type: 'text' }) eventType: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: string;
  /** `endpoint:<id>` or `url:<webhookUrl>`. */
  @Column('text') target: string;
  @Column({ name: 'endpoint_id', type: 'uuid', nullable: true }) endpointId: string | null;
  @Column('text') url: string;
  /** The exact bytes POSTed on every attempt. */
  @Column('text') body: string;
  @Column('text') status: DeliveryStatus;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  /** With tracing on: the W3C traceparent of the event's consumption; each try's span links to it. */
  @Column({ name: 'trace_parent', type: 'text', nullable: true }) traceParent: string | null;
}

/** One try of a delivery; the `pending` row is the next try and is what the worker claims. */
@Entity('webhook_attempts')
@Unique('webhook_attempts_delivery_attempt', ['deliveryId', 'attempt'])
export class WebhookAttempt {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'delivery_id', type: 'uuid' }) deliveryId: string;
  @Column('int') attempt: number;
  @Column('text') status: AttemptStatus;
  @Column({ name: 'due_at', type: 'timestamptz' }) dueAt: Date;
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true }) claimedUntil: Date | null;
  @Column({ name: 'attempted_at', type: 'timestamptz', nullable: true }) attemptedAt: Date | null;
  @Column({ name: 'response_status', type: 'int', nullable: true }) responseStatus: number | null;
  @Column({ name: 'response_excerpt', type: 'text', nullable: true }) responseExcerpt: string | null;
  @Column({ name: 'duration_ms', type: 'int', nullable: true }) durationMs: number | null;
  @Column('text', { nullable: true }) error: DeliveryError | null;
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true }) nextAttemptAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
