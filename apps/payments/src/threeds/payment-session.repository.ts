import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityInsert, entitySelect, runStatement, statement } from '@app/database';
import { ClaimOptions } from '../payment/payment.repository';
import { PaymentSession, SessionKind } from './payment-session.entity';
import { moveThreeDs } from './session-state';

const PAYMENT_ACQUIRER = statement('payments_acquirer', 'SELECT acquirer FROM payments WHERE id = $1');

// Awaited inside a transaction too: the purchase that opens the session hears a failed insert where it opens it.
const insertSession = entityInsert(PaymentSession, 'payment_sessions_insert', { awaited: true });
/** `$2`: the kind asked for, or null for any. */
const byId = entitySelect(
  PaymentSession,
  'payment_sessions_by_id',
  'id = $1 AND ($2::text IS NULL OR kind = $2::text)',
);
const byPayment = entitySelect(PaymentSession, 'payment_sessions_by_payment', 'payment_id = $1 AND kind = $2 LIMIT 1');
const locked = entitySelect(PaymentSession, 'payment_sessions_lock', 'id = $1 FOR UPDATE');

/** 3DS sessions due by `$1` and nobody resumed: `$2`/`$3` one merchant's in one environment, or null for all. */
const DUE = `kind = 'threeds' AND status IN ('pending', 'authenticated', 'failed') AND expires_at <= $1
  AND ($2::text IS NULL OR merchant_code = $2::text) AND ($3::text IS NULL OR environment = $3::text)
  ORDER BY expires_at, id LIMIT $4 FOR UPDATE`;
const claimDue = entitySelect(PaymentSession, 'payment_sessions_claim_expired', `${DUE} SKIP LOCKED`);
const claimDueWaiting = entitySelect(PaymentSession, 'payment_sessions_claim_expired_waiting', DUE);

/**
 * Every column a session's moves change, by id (the status as the caller's transition table set it). Written by
 * hand, not through entityUpdateMany: that one passes rows as JSON, which cannot carry the sealed card (bytea).
 */
const UPDATE = statement(
  'payment_sessions_update',
  `UPDATE payment_sessions SET kind = $2, payment_id = $3, merchant_code = $4, environment = $5, status = $6,
          outcome = $7, intent = $8, connection_code = $9, acquirer_reference = $10, card_key_id = $11,
          card_sealed = $12, display = $13, action = $14, apm = $15, provider_action = $16, expires_at = $17,
          completed_at = $18, consumed_at = $19, created_at = $20
    WHERE id = $1`,
);

/** A jsonb parameter: the value as JSON text (pg would send an array as a PostgreSQL array), null as NULL. */
const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

@Injectable()
export class PaymentSessionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(manager: EntityManager, row: PaymentSession): Promise<void> {
    await insertSession(manager, row);
  }

  /** By id alone: keyless callers know nothing else; the row tells the scope. */
  async find(id: string, kind?: SessionKind): Promise<PaymentSession | null> {
    const [session] = await byId(this.db, [id, kind ?? null]);
    return session ?? null;
  }

  async findByPayment(
    paymentId: string,
    kind: SessionKind,
    manager: EntityManager = this.db.manager,
  ): Promise<PaymentSession | null> {
    const [session] = await byPayment(manager, [paymentId, kind]);
    return session ?? null;
  }

  /** Row lock: completion, resume and the expiry sweep of one session run one at a time. */
  async lock(manager: EntityManager, id: string): Promise<PaymentSession | null> {
    const [session] = await locked(manager, [id]);
    return session ?? null;
  }

  async save(manager: EntityManager, s: PaymentSession): Promise<void> {
    await runStatement(manager, UPDATE, [
      s.id,
      s.kind,
      s.paymentId,
      s.merchantCode,
      s.environment,
      s.status,
      s.outcome,
      s.intent,
      s.connectionCode,
      s.acquirerReference,
      s.cardKeyId,
      s.cardSealed,
      json(s.display),
      json(s.action),
      json(s.apm),
      json(s.providerAction),
      s.expiresAt,
      s.completedAt,
      s.consumedAt,
      s.createdAt,
    ]);
  }

  /** A session used up by a resume that never reached the acquirer is usable again, as the challenge left it. */
  async reopen(manager: EntityManager, id: string): Promise<void> {
    const session = await this.lock(manager, id);
    if (session?.status !== 'consumed') return;
    moveThreeDs(session, session.outcome === 'authenticated' ? 'reopen_authenticated' : 'reopen_failed');
    session.consumedAt = null;
    await this.save(manager, session);
  }

  /**
   * 3DS sessions past their expiry that nobody resumed, earliest first, claimed so any number of replicas
   * sweep once (a clock advance waits for locked rows instead of skipping them, see ClaimOptions).
   */
  claimExpired(manager: EntityManager, now: Date, limit: number, o: ClaimOptions = {}): Promise<PaymentSession[]> {
    const claim = o.waitForLocks ? claimDueWaiting : claimDue;
    return claim(manager, [now, o.scope?.merchantCode ?? null, o.scope?.environment ?? null, limit]);
  }

  /** The acquirer of a session's payment, checked where a simulated page acts on it. */
  async paymentOf(manager: EntityManager, s: PaymentSession): Promise<{ acquirer: string } | undefined> {
    const [row] = await runStatement<{ acquirer: string }>(manager, PAYMENT_ACQUIRER, [s.paymentId]);
    return row;
  }
}
