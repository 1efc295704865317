import { Column, Entity, PrimaryColumn } from 'typeorm';
import type {
  ActionRequiredView,
  ApmView,
  CardAddressDto,
  CardOnFileDto,
  CardView,
  Environment,
  RefusalCodeDto,
  ShopperDto,
  ThreeDSecureView,
  TokenView,
} from '@app/contracts';
import { bigintNumber } from '@app/database';
import type { PaymentState } from './payment-state';

export type PaymentIntent = 'purchase' | 'authorization';
export type CancelReason = 'merchant' | 'hold_expired' | 'abandoned' | 'provider';

/** One try at a connection; a cascade leaves two. */
export interface RoutingAttempt {
  connectionCode: string;
  outcome: string;
  reasonCode?: string;
}

/** A payment. Its status only changes through `transition()` of payment-state.ts. */
@Entity('payments')
export class PaymentEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column({ type: 'text' }) environment: Environment;
  @Column({ name: 'payment_code', type: 'text' }) paymentCode: string;
  @Column({ name: 'order_code', type: 'text' }) orderCode: string;
  @Column({ type: 'text' }) status: PaymentState;
  @Column({ type: 'text' }) intent: PaymentIntent;
  @Column({ name: 'payment_method', type: 'text' }) paymentMethod: string;
  @Column({ name: 'amount_value', type: 'bigint', transformer: bigintNumber }) amountValue: number;
  @Column({ type: 'text' }) currency: string;
  @Column({ type: 'int' }) exponent: number;
  @Column({ name: 'amount_captured', type: 'bigint', transformer: bigintNumber }) amountCaptured: number;
  @Column({ name: 'amount_refunded', type: 'bigint', transformer: bigintNumber }) amountRefunded: number;
  @Column({ name: 'authorization_code', type: 'text', nullable: true }) authorizationCode: string | null;
  @Column({ name: 'connection_code', type: 'text' }) connectionCode: string;
  @Column({ name: 'connection_name', type: 'text' }) connectionName: string;
  @Column({ type: 'text' }) acquirer: string;
  @Column({ name: 'acquirer_reference', type: 'text', nullable: true }) acquirerReference: string | null;
  /** The masked card as answered (never a PAN). */
  @Column({ type: 'jsonb', nullable: true }) card: CardView | null;
  @Column({ name: 'card_address', type: 'jsonb', nullable: true }) cardAddress: CardAddressDto | null;
  @Column({ name: 'card_on_file', type: 'jsonb', nullable: true }) cardOnFile: CardOnFileDto | null;
  @Column({ type: 'int', nullable: true }) instalments: number | null;
  @Column({ type: 'jsonb', nullable: true }) apm: ApmView | null;
  @Column({ type: 'jsonb', nullable: true }) token: TokenView | null;
  @Column({ name: 'action_required', type: 'jsonb', nullable: true }) actionRequired: ActionRequiredView | null;
  @Column({ name: 'refusal_code', type: 'jsonb', nullable: true }) refusalCode: RefusalCodeDto | null;
  /** The 3-D Secure result the acquirer reported on the approval. */
  @Column({ name: 'three_d_secure', type: 'jsonb', nullable: true }) threeDSecure: ThreeDSecureView | null;
  @Column({ type: 'jsonb', nullable: true }) shopper: ShopperDto | null;
  @Column({ name: 'webhook_url', type: 'text', nullable: true }) webhookUrl: string | null;
  @Column({ name: 'ip_address', type: 'text', nullable: true }) ipAddress: string | null;
  @Column({ name: 'three_ds_session_id', type: 'text', nullable: true }) threeDsSessionId: string | null;
  @Column({ type: 'jsonb' }) metadata: Record<string, string>;
  @Column({ type: 'jsonb' }) attempts: RoutingAttempt[];
  /** End of the authorization hold (AUTH_HOLD_DAYS after approval); null when nothing is held. */
  @Column({ name: 'hold_expires_at', type: 'timestamptz', nullable: true }) holdExpiresAt: Date | null;
  @Column({ name: 'cancel_reason', type: 'text', nullable: true }) cancelReason: CancelReason | null;
  /**
   * With tracing on: the W3C traceparent of the request that created it (the hold-expiry run that voids it links
   * to that trace). Written once, on insert; read only by the hold-expiry claim.
   */
  @Column({ name: 'trace_parent', type: 'text', nullable: true, select: false, update: false })
  traceParent?: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** Capture, refund and cancel, one row each: the history behind amountCaptured and amountRefunded. */
@Entity('payment_operations')
export class PaymentOperationEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'payment_id', type: 'uuid' }) paymentId: string;
  @Column({ type: 'text' }) kind: 'capture' | 'refund' | 'cancel';
  @Column({ name: 'amount_value', type: 'bigint', transformer: bigintNumber }) amountValue: number;
  @Column({ type: 'text', nullable: true }) reference: string | null;
  /** A refund's reason, as its request said. */
  @Column({ type: 'text', nullable: true }) reason: string | null;
  /** Who asked for it: the caller's key id (`dashboard:<userId>` for a dashboard user); null before it was kept. */
  @Column({ type: 'text', nullable: true }) actor: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
