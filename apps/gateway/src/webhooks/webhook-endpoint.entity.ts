import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A merchant's webhook target for one environment; soft-deleted so its delivery log stays readable. */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: string;
  @Column('text') url: string;
  @Column('text', { array: true }) events: string[];
  /** The signing secret, sealed (WebhookSecretCipher): shown once at creation, never logged. */
  @Column({ name: 'secret_key_id', type: 'text' }) secretKeyId: string;
  @Column({ name: 'secret_sealed', type: 'bytea' }) secretSealed: Buffer;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}
