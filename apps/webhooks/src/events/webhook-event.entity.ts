import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An event this service received, as delivered to webhooks (`body`); kept 30 days for `GET /v1/events`. */
@Entity('webhook_events')
@Index('webhook_events_by_merchant', ['merchantCode', 'environment', 'createdAt', 'id'])
export class WebhookEventRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('text') type: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: string;
  /** The event's own time (the sandbox clock for sandbox objects). */
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  /** The exact bytes a webhook delivery of it carries. */
  @Column('text') body: string;
  /** Real time of receipt: what retention counts from. */
  @Column({ name: 'received_at', type: 'timestamptz' }) receivedAt: Date;
}
