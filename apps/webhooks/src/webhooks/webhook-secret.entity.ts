import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The account signing secret of a merchant and environment: signs deliveries to a payment's webhookUrl. */
@Entity('webhook_secrets')
export class WebhookSecret {
  @PrimaryColumn({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @PrimaryColumn('text') environment: string;
  /** Sealed (WebhookSecretCipher). */
  @Column({ name: 'secret_key_id', type: 'text' }) secretKeyId: string;
  @Column({ name: 'secret_sealed', type: 'bytea' }) secretSealed: Buffer;
  /** The secret before the last roll, sealed, still signing until it expires. */
  @Column({ name: 'previous_secret_key_id', type: 'text', nullable: true }) previousSecretKeyId: string | null;
  @Column({ name: 'previous_secret_sealed', type: 'bytea', nullable: true }) previousSecretSealed: Buffer | null;
  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
