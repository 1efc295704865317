import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import type { Environment } from '@app/contracts';
import { runStatement, statement } from '@app/database';

/** A dashboard user's own account (migrations/1769000100001-dashboard-totp-changes.ts). */
export type AuditEventType = 'totp.enabled' | 'totp.replaced' | 'totp.disabled' | 'password.reset';

/** A change to a merchant's users, keys, endpoints, connections, policies or money (docs/api.md, Audit log). */
export const AUDIT_ACTIONS = [
  'team.invited',
  'team.role_changed',
  'team.removed',
  'api_key.created',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.secret_rolled',
  'webhook_endpoint.deleted',
  'webhook_secret.rolled',
  'connection.created',
  'allowed_origins.replaced',
  'recovery_policy.replaced',
  'payment.captured',
  'payment.refunded',
  'payment.cancelled',
  'payment.cancelled_or_refunded',
  'subscription.payment_retried',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who made a change: a dashboard user in a session, a merchant's API key, or an operator (admin API). */
export type AuditActor =
  | { channel: 'dashboard'; userId: string; email: string; sessionId: string }
  | { channel: 'api'; apiKeyId: string }
  | { channel: 'admin' };

export interface AuditChange {
  type: AuditAction;
  actor: AuditActor;
  merchantCode: string;
  environment: Environment | null;
  /** The object changed: a payment, subscription, endpoint, key or user id. */
  target: string | null;
  /** What else says what happened: an amount, a role, an email (never a secret). */
  detail: Record<string, unknown>;
  clientAddress: string | null;
  /** The request's Idempotency-Key: a retry that answers the same change again writes no second entry. */
  idempotencyKey?: string;
  at: Date;
}

export interface AuditEvent {
  id: string;
  type: AuditEventType;
  /** The session that made the change. */
  sessionId: string | null;
  /** The client address the change came from. */
  clientAddress: string | null;
  createdAt: Date;
}

export interface AuditLogEntry {
  id: string;
  type: AuditAction;
  channel: AuditActor['channel'];
  userId: string | null;
  userEmail: string | null;
  apiKeyId: string | null;
  environment: Environment | null;
  target: string | null;
  detail: Record<string, unknown>;
  clientAddress: string | null;
  createdAt: Date;
}

const RECORD = statement(
  'dashboard_audit_record',
  `INSERT INTO dashboard_audit_events (id, user_id, type, session_id, client_address, created_at, channel)
   VALUES ($1, $2, $3, $4, $5, $6, 'dashboard')`,
);
const RECORD_CHANGE = statement(
  'dashboard_audit_record_change',
  `INSERT INTO dashboard_audit_events (id, type, channel, user_id, actor_email, session_id, api_key_id,
     merchant_id, environment, target, detail, client_address, created_at, idempotency_key)
   VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT id FROM merchants WHERE merchant_code = $8), $9, $10, $11, $12, $13,
           $14)
   ON CONFLICT (merchant_id, environment, type, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
);
const OWN_EVENTS = statement(
  'dashboard_audit_own_events',
  `SELECT id, type, session_id AS "sessionId", client_address AS "clientAddress", created_at AS "createdAt"
     FROM dashboard_audit_events WHERE user_id = $1 AND merchant_id IS NULL
    ORDER BY created_at DESC, id DESC LIMIT 100`,
);
const MERCHANT_CHANGES = statement(
  'dashboard_audit_merchant_changes',
  `SELECT e.id, e.type, e.channel, e.user_id AS "userId", e.actor_email AS "userEmail", e.api_key_id AS "apiKeyId",
          e.environment, e.target, e.detail, e.client_address AS "clientAddress", e.created_at AS "createdAt"
     FROM dashboard_audit_events e JOIN merchants mc ON mc.id = e.merchant_id
    WHERE mc.merchant_code = $1 AND ($2::uuid IS NULL OR e.id < $2::uuid)
      AND (e.environment IS NULL OR e.environment = $4)
    ORDER BY e.id DESC LIMIT $3`,
);

/**
 * The audit log (dashboard_audit_events): a dashboard user's account events and every change to a merchant,
 * written in the transaction of the change where the gateway holds it, after it otherwise. Append-only: this
 * class has no UPDATE or DELETE, and a trigger refuses them (migrations/1769000700002-team-and-audit-log.ts).
 */
@Injectable()
export class DashboardAuditRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** An event of a user's own account (TOTP, password), made by that user. */
  async record(
    m: EntityManager,
    event: { userId: string; type: AuditEventType; sessionId: string | null; clientAddress: string; at: Date },
  ): Promise<void> {
    const values = [uuidv7(), event.userId, event.type, event.sessionId, event.clientAddress, event.at];
    await runStatement(m, RECORD, values);
  }

  /** A change to a merchant, in `m`'s transaction when given. */
  async recordChange(change: AuditChange, m: EntityManager | DataSource = this.db): Promise<void> {
    const a = change.actor;
    await runStatement(m, RECORD_CHANGE, [
      uuidv7(),
      change.type,
      a.channel,
      a.channel === 'dashboard' ? a.userId : null,
      a.channel === 'dashboard' ? a.email : null,
      a.channel === 'dashboard' ? a.sessionId : null,
      a.channel === 'api' ? a.apiKeyId : null,
      change.merchantCode,
      change.environment,
      change.target,
      JSON.stringify(change.detail),
      change.clientAddress,
      change.at,
      change.idempotencyKey ?? null,
    ]);
  }

  /** The user's own account events, newest first (at most 100). */
  listOf(userId: string): Promise<AuditEvent[]> {
    return runStatement<AuditEvent & Record<string, unknown>>(this.db, OWN_EVENTS, [userId]);
  }

  /**
   * A merchant's changes in one environment (and those of no environment: its team), newest first, `limit` of them before the event `before` (keyset paging by the
   * time-ordered id: a page stays right while new events are written).
   */
  listForMerchant(
    merchantCode: string,
    o: { environment: Environment; before?: string; limit: number },
  ): Promise<AuditLogEntry[]> {
    const values = [merchantCode, o.before ?? null, o.limit, o.environment];
    return runStatement<AuditLogEntry & Record<string, unknown>>(this.db, MERCHANT_CHANGES, values);
  }
}
