import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';

/** What happened to a dashboard user's account (migrations/1769000100001-dashboard-totp-changes.ts). */
export type AuditEventType = 'totp.enabled' | 'totp.replaced' | 'totp.disabled';

export interface AuditEvent {
  id: string;
  type: AuditEventType;
  /** The session that made the change. */
  sessionId: string | null;
  /** The client address the change came from. */
  clientAddress: string | null;
  createdAt: Date;
}

/** A dashboard user's audit trail: written in the transaction of the change it records, read by the user. */
@Injectable()
export class DashboardAuditRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(
    m: EntityManager,
    event: { userId: string; type: AuditEventType; sessionId: string; clientAddress: string; at: Date },
  ): Promise<void> {
    await m.query(
      `INSERT INTO dashboard_audit_events (id, user_id, type, session_id, client_address, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [uuidv7(), event.userId, event.type, event.sessionId, event.clientAddress, event.at],
    );
  }

  /** The user's events, newest first (at most 100). */
  listOf(userId: string): Promise<AuditEvent[]> {
    return this.db.query(
      `SELECT id, type, session_id AS "sessionId", client_address AS "clientAddress", created_at AS "createdAt"
       FROM dashboard_audit_events WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 100`,
      [userId],
    );
  }
}
