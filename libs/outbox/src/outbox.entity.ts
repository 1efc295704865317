import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** An event waiting to be published; written in the same transaction as the state change it describes. */
@Entity('outbox')
@Index('outbox_unpublished', ['createdAt'], { where: 'published_at IS NULL' })
export class OutboxRow {
  @PrimaryColumn('uuid') id: string;
  @Column('text') type: string;
  @Column('json') envelope: Record<string, unknown>;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true }) claimedUntil: Date | null;
  @Column({ name: 'published_at', type: 'timestamptz', nullable: true }) publishedAt: Date | null;
  @Column({ type: 'int', default: 0 }) attempts: number;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError: string | null;
  /** With tracing on: the W3C traceparent of the work that wrote the row (its publish is a child of it). */
  @Column({ name: 'trace_parent', type: 'text', nullable: true }) traceParent: string | null;
}
