import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A merchant's webhook target for one environment; soft-deleted so its delivery log stays readable. */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: string;
  @Column('text') url: string;
  @Column('text', { array: true }) events: string[];
  /** Kept in clear: it has to be recovered to sign every delivery. Never logged, shown once at creation. */
  @Column('text') secret: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}
