import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment } from '@app/contracts';

/** A routing connection of a merchant in one environment (see RoutingService). */
@Entity('connections')
export class ConnectionEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column({ type: 'text' }) environment: Environment;
  @Column({ name: 'connection_code', type: 'text' }) connectionCode: string;
  @Column({ name: 'connection_name', type: 'text' }) connectionName: string;
  @Column({ type: 'text' }) acquirer: string;
  /** Empty: every currency. */
  @Column({ type: 'text', array: true }) currencies: string[];
  /** Empty: every method. */
  @Column({ type: 'text', array: true }) methods: string[];
  /** Lower first. */
  @Column({ type: 'int' }) priority: number;
  @Column({ name: 'is_default', type: 'boolean' }) isDefault: boolean;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
