import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment } from '@app/contracts';

/**
 * A card the browser SDK collected, waiting (at most 15 minutes) to be used by one purchase or
 * authorization. The card, CVV included, is sealed with the vault key; the row is deleted when it is used,
 * so the CVV never outlives the authorization it was collected for, or by the sweeper once it expired unused.
 */
@Entity('card_nonces')
export class CardNonce {
  @PrimaryColumn('text') nonce: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: Environment;
  /** The private key that minted the client token, for audit. */
  @Column({ name: 'api_key_id', type: 'text', nullable: true }) apiKeyId: string | null;
  @Column({ name: 'key_id', type: 'text' }) keyId: string;
  @Column({ name: 'card_sealed', type: 'bytea' }) cardSealed: Buffer;
  /** On the caller's clock (a sandbox clock may run ahead): a payment refuses the nonce after it. */
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  /** The same end in real time: the sweeper deletes the row after it, whatever the sandbox clock reads. */
  @Column({ name: 'real_expires_at', type: 'timestamptz' }) realExpiresAt: Date;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
