import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A merchant's webhook target for one environment; soft-deleted so its delivery log stays readable. */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: string;
  @Column('text') url: string;
  @Column('text', { array: true }) events: string[];
  @Column('text', { nullable: true }) description: string | null;
  /** A disabled endpoint gets no deliveries; tries still waiting for it are given up when due. */
  @Column('boolean', { default: false }) disabled: boolean;
  /** The signing secret, sealed (WebhookSecretCipher): shown once at creation, never logged. */
  @Column({ name: 'secret_key_id', type: 'text' }) secretKeyId: string;
  @Column({ name: 'secret_sealed', type: 'bytea' }) secretSealed: Buffer;
  /** The secret before the last roll, sealed, still signing until it expires. */
  @Column({ name: 'previous_secret_key_id', type: 'text', nullable: true }) previousSecretKeyId: string | null;
  @Column({ name: 'previous_secret_sealed', type: 'bytea', nullable: true }) previousSecretSealed: Buffer | null;
  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}
