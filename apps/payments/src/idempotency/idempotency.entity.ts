import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment } from '@app/contracts';

/** A request that carried an Idempotency-Key: in progress, then its stored 2xx answer (DECISIONS §1, §3 Rules). */
@Entity('idempotency_keys')
export class IdempotencyRecord {
  @PrimaryColumn({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @PrimaryColumn({ type: 'text' }) environment: Environment;
  @PrimaryColumn({ name: 'idempotency_key', type: 'text' }) key: string;
  @Column({ type: 'text' }) operation: string;
  @Column({ name: 'request_hash', type: 'text' }) requestHash: string;
  /** Null while the request is in progress (reserved, its acquirer call not recorded yet). */
  @Column({ name: 'response_status', type: 'int', nullable: true }) responseStatus: number | null;
  @Column({ name: 'response_body', type: 'json', nullable: true }) responseBody: object | null;
  /** Set by the database: retention (24 hours) is wall-clock time, not a sandbox clock. */
  @Column({ name: 'created_at', type: 'timestamptz', insert: false }) createdAt: Date;
}
