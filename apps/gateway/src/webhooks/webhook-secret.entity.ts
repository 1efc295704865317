import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The account signing secret of a merchant and environment: signs deliveries to a payment's webhookUrl. */
@Entity('webhook_secrets')
export class WebhookSecret {
  @PrimaryColumn({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @PrimaryColumn('text') environment: string;
  /** Sealed (WebhookSecretCipher). */
  @Column({ name: 'secret_key_id', type: 'text' }) secretKeyId: string;
  @Column({ name: 'secret_sealed', type: 'bytea' }) secretSealed: Buffer;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
