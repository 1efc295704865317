import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The account signing secret of a merchant and environment: signs deliveries to a payment's webhookUrl. */
@Entity('webhook_secrets')
export class WebhookSecret {
  @PrimaryColumn({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @PrimaryColumn('text') environment: string;
  @Column('text') secret: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
