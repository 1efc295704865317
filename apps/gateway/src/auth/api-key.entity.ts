import { Column, CreateDateColumn, Entity, JoinTable, ManyToMany, PrimaryColumn } from 'typeorm';
import type { Environment } from '@app/contracts';
import { Merchant } from './merchant.entity';

export type KeyType = 'private' | 'public';

/** An API key: only its SHA-256 hash and a short hint are stored; the key itself is shown once. */
@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'key_hash', type: 'char', length: 64, unique: true }) keyHash: string;
  @Column({ name: 'key_hint', type: 'text' }) keyHint: string;
  /** A label given in the dashboard; keys made through the admin API have none. */
  @Column({ type: 'text', nullable: true }) name: string | null;
  @Column('text') type: KeyType;
  @Column('text') environment: Environment;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;

  @ManyToMany(() => Merchant, { eager: true })
  @JoinTable({
    name: 'api_key_merchants',
    joinColumn: { name: 'key_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'merchant_id', referencedColumnName: 'id' },
  })
  merchants: Merchant[];
}
