import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ActionRequiredView, ApmView, Environment } from '@app/contracts';
import type { ProviderAction } from '../connector/provider-connector';
import type { SessionStatus } from './session-state';

export type SessionKind = 'threeds' | 'apm';

/** What a hosted page shows: never card data beyond the masked number. */
export interface SessionDisplay {
  amount: { currency: string; value: number; exponent: number };
  maskedCard?: string;
}

/**
 * The credential of `actionRequired.sessionId`: a random, unguessable id bound to one payment. Keyless
 * routes (resume, hosted pages) find the merchant and environment here.
 */
@Entity('payment_sessions')
export class PaymentSession {
  @PrimaryColumn('text') id: string;
  @Column('text') kind: SessionKind;
  @Column({ name: 'payment_id', type: 'uuid' }) paymentId: string;
  @Column({ name: 'merchant_code', type: 'text' }) merchantCode: string;
  @Column('text') environment: Environment;
  /** Moves through THREEDS_SESSION_MACHINE or APM_SESSION_MACHINE (session-state.ts), as `kind` says. */
  @Column('text') status: SessionStatus;
  /** The cardholder's answer, kept once the session is consumed. */
  @Column({ type: 'text', nullable: true }) outcome: 'authenticated' | 'failed' | null;
  /** 3DS: `purchase` captures on a successful resume, `authorization` holds. */
  @Column({ type: 'text', nullable: true }) intent: 'purchase' | 'authorization' | null;
  @Column({ name: 'connection_code', type: 'text', nullable: true }) connectionCode: string | null;
  @Column({ name: 'acquirer_reference', type: 'text', nullable: true }) acquirerReference: string | null;
  /**
   * A card to store in the vault if the resume approves (`tokenize: true` on a challenged payment): sealed
   * with the vault key, no CVV, and wiped as soon as the session is used or expires.
   */
  @Column({ name: 'card_key_id', type: 'text', nullable: true }) cardKeyId: string | null;
  @Column({ name: 'card_sealed', type: 'bytea', nullable: true }) cardSealed: Buffer | null;
  @Column({ type: 'jsonb' }) display: SessionDisplay;
  @Column({ type: 'jsonb' }) action: ActionRequiredView;
  @Column({ type: 'jsonb', nullable: true }) apm: ApmView | null;
  /** A provider's 3-D Secure: where the hosted page sends the shopper (null: the simulated challenge). */
  @Column({ name: 'provider_action', type: 'jsonb', nullable: true }) providerAction: ProviderAction | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true }) consumedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  /**
   * With tracing on: the W3C traceparent of the request that opened it (the 3DS expiry run that ends it links to
   * that trace). Written once, on insert; read only by the expiry claim.
   */
  @Column({ name: 'trace_parent', type: 'text', nullable: true, select: false, update: false })
  traceParent?: string | null;
}
