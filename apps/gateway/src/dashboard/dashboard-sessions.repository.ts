import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { inTransaction, runStatement, statement } from '@app/database';

export interface StoredSession {
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

const INSERT = statement(
  'dashboard_sessions_insert',
  `INSERT INTO dashboard_sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at)
   VALUES ($1, $2, $3, $4, $4, $5)`,
);
const LIVE_BY_HASH = statement(
  'dashboard_sessions_live_by_hash',
  `SELECT id, user_id AS "userId", created_at AS "createdAt", last_seen_at AS "lastSeenAt", expires_at AS "expiresAt"
     FROM dashboard_sessions WHERE token_hash = $1 AND ended_at IS NULL`,
);
const END = statement(
  'dashboard_sessions_end',
  'UPDATE dashboard_sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL',
);
const SEEN = statement(
  'dashboard_sessions_seen',
  'UPDATE dashboard_sessions SET last_seen_at = GREATEST(last_seen_at, $2) WHERE id = $1',
);
const END_ALL_OF = statement(
  'dashboard_sessions_end_all_of',
  'UPDATE dashboard_sessions SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL',
);
const LOCK_EMAIL = statement(
  'dashboard_login_failures_lock',
  `SELECT pg_advisory_xact_lock(hashtext('dashboard-sign-in:' || $1))`,
);
const FORGET_OLD = statement(
  'dashboard_login_failures_forget_old',
  'DELETE FROM dashboard_login_failures WHERE email = $1 AND failed_at <= $2',
);
const RECENT = statement(
  'dashboard_login_failures_recent',
  'SELECT failed_at AS "failedAt" FROM dashboard_login_failures WHERE email = $1 ORDER BY failed_at',
);
const RESERVE = statement(
  'dashboard_login_failures_reserve',
  'INSERT INTO dashboard_login_failures (id, email, failed_at) VALUES ($1, $2, $3)',
);
const RELEASE = statement('dashboard_login_failures_release', 'DELETE FROM dashboard_login_failures WHERE id = $1');
const PRUNE_SESSIONS = statement(
  'dashboard_sessions_prune',
  `WITH pruned AS (
     DELETE FROM dashboard_sessions WHERE id IN (
       SELECT id FROM dashboard_sessions
        WHERE LEAST(COALESCE(ended_at, 'infinity'), expires_at, last_seen_at + make_interval(secs => $2)) <= $1
        LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING 1)
   SELECT count(*)::int AS n FROM pruned`,
);
const PRUNE_ATTEMPTS = statement(
  'dashboard_login_failures_prune',
  `WITH pruned AS (
     DELETE FROM dashboard_login_failures WHERE id IN (
       SELECT id FROM dashboard_login_failures WHERE failed_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1)
   SELECT count(*)::int AS n FROM pruned`,
);
const CLEAR = statement('dashboard_login_failures_clear', 'DELETE FROM dashboard_login_failures WHERE email = $1');

/** Dashboard sessions (stored by token hash only) and the failed sign-ins the lockout counts. */
@Injectable()
export class DashboardSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(session: StoredSession & { tokenHash: string }): Promise<void> {
    const values = [session.id, session.tokenHash, session.userId, session.createdAt, session.expiresAt];
    await runStatement(this.db, INSERT, values);
  }

  /**
   * The live session of a token hash, its last use moved to `now` (written at most every 30 seconds, so a busy
   * tab does not write a row per request). A session past either expiry is ended here and is not answered.
   */
  async use(tokenHash: string, now: Date, idleMs: number): Promise<StoredSession | null> {
    const rows = await runStatement<StoredSession & Record<string, unknown>>(this.db, LIVE_BY_HASH, [tokenHash]);
    const session = rows[0];
    if (!session) return null;
    const idleUntil = session.lastSeenAt.getTime() + idleMs;
    if (now.getTime() >= idleUntil || now.getTime() >= session.expiresAt.getTime()) {
      await runStatement(this.db, END, [session.id, now]);
      return null;
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= 30_000) {
      await runStatement(this.db, SEEN, [session.id, now]);
      session.lastSeenAt = now;
    }
    return session;
  }

  async end(id: string, now: Date): Promise<void> {
    await runStatement(this.db, END, [id, now]);
  }

  async endAllOf(userId: string, now: Date): Promise<void> {
    await runStatement(this.db, END_ALL_OF, [userId, now]);
  }

  /**
   * Reserves a sign-in attempt for this email before its password is checked (STYLE.md, boundaries: the limit
   * takes its slot before the act it limits, so parallel guesses cannot slip past it). Answers the reservation's
   * id, or, when `limit` attempts within the window are recorded already, when the oldest of them leaves it.
   */
  async reserveAttempt(
    email: string,
    now: Date,
    windowMs: number,
    limit: number,
  ): Promise<{ id: string } | { lockedUntil: Date }> {
    return inTransaction(this.db, async (m) => {
      // One email's attempts are counted one at a time.
      await runStatement(m, LOCK_EMAIL, [email]);
      const since = new Date(now.getTime() - windowMs);
      await runStatement(m, FORGET_OLD, [email, since]);
      const recent = await runStatement<{ failedAt: Date }>(m, RECENT, [email]);
      if (recent.length >= limit) {
        return { lockedUntil: new Date(recent[recent.length - limit].failedAt.getTime() + windowMs) };
      }
      const id = uuidv7();
      await runStatement(m, RESERVE, [id, email, now]);
      return { id };
    });
  }

  /** Takes back one reserved attempt (a step that guessed nothing, such as asking for the TOTP code). */
  async releaseAttempt(id: string): Promise<void> {
    await runStatement(this.db, RELEASE, [id]);
  }

  /**
   * Deletes at most `limit` sessions that ended (signed out, idle for `idleMs` or past their absolute expiry) at
   * or before `endedBy`, claimed with FOR UPDATE SKIP LOCKED; answers how many went.
   */
  async pruneSessions(endedBy: Date, idleMs: number, limit: number): Promise<number> {
    const [{ n }] = await runStatement<{ n: number }>(this.db, PRUNE_SESSIONS, [endedBy, idleMs / 1000, limit]);
    return n;
  }

  /** Deletes at most `limit` failed sign-ins made at or before `before` (out of every lockout window). */
  async pruneAttempts(before: Date, limit: number): Promise<number> {
    const [{ n }] = await runStatement<{ n: number }>(this.db, PRUNE_ATTEMPTS, [before, limit]);
    return n;
  }

  /** A successful sign-in clears the email's count. */
  async clearAttempts(email: string): Promise<void> {
    await runStatement(this.db, CLEAR, [email]);
  }
}
