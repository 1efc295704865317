import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AmountMode, CheckoutPlanView, Environment, LinkStatus, LinkType } from '@app/contracts';
import { bigintNumber } from '@app/database';

@Entity('payment_links')
export class PaymentLinkEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  /** The merchant's integer id, carried into the keyless pay path's commands. */
  @Column({ name: 'merchant_id', type: 'bigint', nullable: true, transformer: bigintNumber }) merchantId: number | null;
  @Column('text') environment: Environment;
  @Column('text') type: LinkType;
  @Column('text') status: LinkStatus;
  @Column({ name: 'amount_mode', type: 'text' }) amountMode: AmountMode;
  @Column({ type: 'text', nullable: true }) currency: string | null;
  @Column({ type: 'int', nullable: true }) exponent: number | null;
  @Column({ name: 'amount_value', type: 'bigint', nullable: true, transformer: bigintNumber })
  amountValue: number | null;
  @Column({ name: 'amount_min', type: 'bigint', nullable: true, transformer: bigintNumber }) amountMin: number | null;
  @Column({ name: 'amount_max', type: 'bigint', nullable: true, transformer: bigintNumber }) amountMax: number | null;
  @Column({ name: 'subscription_plan_id', type: 'bigint', nullable: true, transformer: bigintNumber })
  subscriptionPlanId: number | null;
  /** What the checkout shows of a subscription link's plan, as it was when the link was created. */
  @Column({ type: 'jsonb', nullable: true }) plan: CheckoutPlanView | null;
  @Column({ name: 'checkout_config_id', type: 'uuid', nullable: true }) checkoutConfigId: string | null;
  @Column({ type: 'text', nullable: true }) title: string | null;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'text', nullable: true }) reference: string | null;
  @Column({ name: 'customer_email', type: 'text', nullable: true }) customerEmail: string | null;
  @Column({ name: 'customer_name', type: 'text', nullable: true }) customerName: string | null;
  @Column({ name: 'return_url', type: 'text', nullable: true }) returnUrl: string | null;
  @Column({ name: 'save_card_enabled', type: 'boolean' }) saveCardEnabled: boolean;
  @Column('boolean') reusable: boolean;
  @Column({ name: 'max_uses', type: 'int', nullable: true }) maxUses: number | null;
  @Column({ name: 'uses_count', type: 'int' }) usesCount: number;
  @Column({ type: 'jsonb' }) metadata: Record<string, string>;
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true }) usedAt: Date | null;
  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true }) cancelledAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  /**
   * With tracing on: the W3C traceparent of the request that created it (the expiry run that expires it links to
   * that trace). Written once, on insert; read only by the expiry claim.
   */
  @Column({ name: 'trace_parent', type: 'text', nullable: true, select: false, update: false })
  traceParent?: string | null;
}
