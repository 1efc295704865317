import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '@app/database';
import type { LinkUseStatus } from './link-use-state';

/**
 * One attempt to pay a link. A use is reserved under the link's row lock before payments is called (no
 * transaction stays open across that call), then confirmed by a successful payment or released by anything
 * else. A reservation holds its place until `reservedUntil`; one left behind (a crash, a payer who never
 * finished 3DS) stops counting then.
 */
@Entity('payment_link_uses')
export class LinkUseEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'link_id', type: 'uuid' }) linkId: string;
  /** Moves through LINK_USE_MACHINE (link-use-state.ts). */
  @Column('text') status: LinkUseStatus;
  @Column({ name: 'payment_id', type: 'uuid', nullable: true }) paymentId: string | null;
  @Column({ name: 'session_id', type: 'text', nullable: true }) sessionId: string | null;
  @Column({ name: 'subscription_id', type: 'text', nullable: true }) subscriptionId: string | null;
  @Column({ name: 'amount_value', type: 'bigint', nullable: true, transformer: bigintNumber })
  amountValue: number | null;
  @Column({ name: 'reserved_until', type: 'timestamptz' }) reservedUntil: Date;
  /**
   * With tracing on: the W3C traceparent of the checkout request that reserved it (the reconcile run that checks
   * it once lapsed links to that trace). Written once, on insert; read only by the lapsed claim.
   */
  @Column({ name: 'trace_parent', type: 'text', nullable: true, select: false, update: false })
  traceParent?: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
