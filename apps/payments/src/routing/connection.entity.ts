import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment } from '@app/contracts';

/** `apiKeyLast4`, `merchantAccountLast4`, … of the credentials a connection holds. */
export type CredentialHints = Partial<
  Record<'apiKeyLast4' | 'merchantAccountLast4' | 'hmacKeyLast4' | 'webhookSecretLast4', string>
>;

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
  /** Null: the provider's test endpoint in sandbox, its live one in production (the connector decides). */
  @Column({ type: 'text', nullable: true }) endpoint: string | null;
  /** The CONNECTION_CREDENTIAL_KEYS key that sealed `credentialsBlob`; null for the simulator. */
  @Column({ name: 'credentials_key_id', type: 'text', nullable: true }) credentialsKeyId: string | null;
  /** Sealed ConnectionCredentials (connection-credentials.ts); never read outside ConnectionCredentialsCipher. */
  @Column({ name: 'credentials_blob', type: 'bytea', nullable: true }) credentialsBlob: Buffer | null;
  /** The last four characters of each credential, for the admin API. */
  @Column({ name: 'credential_hints', type: 'jsonb', nullable: true }) credentialHints: CredentialHints | null;
  @Column({ name: 'credentials_updated_at', type: 'timestamptz', nullable: true }) credentialsUpdatedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
