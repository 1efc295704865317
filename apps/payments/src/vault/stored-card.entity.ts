import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment } from '@app/contracts';

/**
 * A tokenized card. The PAN is only ever held sealed (AES-256-GCM, `keyId` names the VAULT_KEYS key); the
 * CVV is never stored. Bin and last four are kept for the masked number in responses.
 */
@Entity('stored_cards')
export class StoredCard {
  @PrimaryColumn('uuid') id: string;
  @Column({ type: 'text', unique: true }) token: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: Environment;
  @Column({ name: 'shopper_id', type: 'text' }) shopperId: string;
  @Column({ name: 'key_id', type: 'text' }) keyId: string;
  @Column({ name: 'pan_sealed', type: 'bytea' }) panSealed: Buffer;
  @Column({ type: 'text' }) bin: string;
  @Column({ type: 'text' }) last4: string;
  @Column({ type: 'text' }) brand: string;
  @Column({ name: 'card_type', type: 'text' }) cardType: string;
  @Column({ name: 'expiry_month', type: 'text' }) expiryMonth: string;
  @Column({ name: 'expiry_year', type: 'text' }) expiryYear: string;
  @Column({ name: 'cardholder_name', type: 'text', nullable: true }) cardholderName: string | null;
  /** From the authorization that stored the card: cited on later merchant-initiated charges. */
  @Column({ name: 'network_transaction_id', type: 'text', nullable: true }) networkTransactionId: string | null;
  @Column({ name: 'network_reference_id', type: 'text', nullable: true }) networkReferenceId: string | null;
  /**
   * The acquirer of the payment that stored the card (`sandbox`: the simulator); null for a card stored before it
   * was kept and matched to no payment. Only a simulator's card meets the sandbox account updater.
   */
  @Column({ type: 'text', nullable: true }) acquirer: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
