import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment, SubscriptionStatus } from '@app/contracts';
import { bigintNumber } from '@app/database';
import type { DunningState } from '../recovery/recovery-policy';

/**
 * A customer's enrolment in a plan. Periods are anchored: period n starts at
 * periodBoundary(billingAnchor, plan.interval, plan.intervalCount, n) (calendar arithmetic, month-end safe);
 * `nextBillingDate` is what the renewal scheduler claims rows by.
 */
@Entity('subscriptions')
export class SubscriptionEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: Environment;
  @Column({ name: 'merchant_id', type: 'bigint', nullable: true, transformer: bigintNumber }) merchantId: number | null;
  @Column({ name: 'plan_id', type: 'bigint', transformer: bigintNumber }) planId: number;
  /** Set only through the transition table (subscription-state.ts). */
  @Column('text') status: SubscriptionStatus;
  @Column({ name: 'customer_email', type: 'text' }) customerEmail: string;
  @Column({ name: 'customer_name', type: 'text', nullable: true }) customerName: string | null;
  @Column({ name: 'customer_document', type: 'text', nullable: true }) customerDocument: string | null;
  @Column({ name: 'card_brand', type: 'text', nullable: true }) cardBrand: string | null;
  /** The vault token charged on renewals (merchant-initiated); never shown. */
  @Column({ name: 'card_token', type: 'text' }) cardToken: string;
  @Column({ name: 'network_transaction_id', type: 'text', nullable: true }) networkTransactionId: string | null;
  @Column({ name: 'network_reference_id', type: 'text', nullable: true }) networkReferenceId: string | null;
  @Column({ name: 'billing_anchor', type: 'timestamptz', nullable: true }) billingAnchor: Date | null;
  @Column({ name: 'current_period_start', type: 'timestamptz', nullable: true }) currentPeriodStart: Date | null;
  @Column({ name: 'current_period_end', type: 'timestamptz', nullable: true }) currentPeriodEnd: Date | null;
  @Column({ name: 'next_billing_date', type: 'timestamptz', nullable: true }) nextBillingDate: Date | null;
  @Column({ name: 'trial_start', type: 'timestamptz', nullable: true }) trialStart: Date | null;
  @Column({ name: 'trial_end', type: 'timestamptz', nullable: true }) trialEnd: Date | null;
  @Column({ name: 'start_at', type: 'timestamptz', nullable: true }) startAt: Date | null;
  @Column({ name: 'dunning_attempt_count', type: 'int' }) dunningAttemptCount: number;
  @Column({ name: 'cycles_completed', type: 'int' }) cyclesCompleted: number;
  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true }) activatedAt: Date | null;
  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true }) cancelledAt: Date | null;
  @Column({ name: 'paused_at', type: 'timestamptz', nullable: true }) pausedAt: Date | null;
  @Column({ name: 'suspended_at', type: 'timestamptz', nullable: true }) suspendedAt: Date | null;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @Column({ name: 'parent_subscription_id', type: 'uuid', nullable: true }) parentSubscriptionId: string | null;
  @Column({ name: 'propagate_lifecycle', type: 'boolean' }) propagateLifecycle: boolean;
  @Column({ name: 'pending_plan_id', type: 'bigint', nullable: true, transformer: bigintNumber })
  pendingPlanId: number | null;
  /** Set when a renewal failed for a reason a retry cannot change (renewal-parking.service.ts). */
  @Column({ name: 'renewal_parked_at', type: 'timestamptz', nullable: true }) renewalParkedAt: Date | null;
  @Column({ name: 'renewal_parked_reason', type: 'text', nullable: true }) renewalParkedReason: string | null;
  /**
   * With tracing on: the W3C traceparent of the request that created it (the renewal batches that charge it
   * link to that trace). Written once, on insert; not read with the row (the renewal claim returns it).
   */
  @Column({ name: 'trace_parent', type: 'text', nullable: true, select: false, update: false })
  traceParent?: string | null;
  /** Set while past_due (recovery/recovery-policy.ts): the run's policy version, last refusal, what it waits for. */
  @Column({ type: 'jsonb', nullable: true }) dunning: DunningState | null;
  /** The renewal (nextBillingDate) the card was checked for with the account updater (account-updater/). */
  @Column({ name: 'card_checked_for', type: 'timestamptz', nullable: true }) cardCheckedFor: Date | null;
  /** The account updater said the card's account is closed: its renewal waits for a new payment method. */
  @Column({ name: 'card_closed_at', type: 'timestamptz', nullable: true }) cardClosedAt: Date | null;
  @Column('jsonb') metadata: Record<string, string>;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
